import { z } from 'zod';
import { ADMIN_LEVEL, LIMITS } from '../limits.js';
import { emailField, newPassword, optionalText, phoneField, recordNo, requiredText, text } from '../validation.js';
import { pagingRequest } from './paging.js';
import { authFlags, type AuthFlags } from './identity.js';

export const USER_SEARCH_TYPES = ['name', 'userId', 'employeeNo', 'department'] as const;
export type UserSearchType = (typeof USER_SEARCH_TYPES)[number];

export const adminUserListRequest = pagingRequest.safeExtend({ type: z.enum(USER_SEARCH_TYPES).optional() });
export const userNoRequest = z.strictObject({ userNo: recordNo });

const optionalPhone = z.union([z.literal(''), phoneField]).optional();
const level = z.number().int().min(1).max(ADMIN_LEVEL);
/** A user's department: a department code, or empty or null for none. */
const departmentCode = z
  .union([z.literal(''), text().trim().max(LIMITS.departmentCode)])
  .nullish()
  .transform((code) => (code === '' ? null : code));

export const adminUserCreateRequest = z.strictObject({
  userId: emailField,
  name: requiredText(LIMITS.userName),
  password: newPassword,
  employeeNo: optionalText(LIMITS.employeeNo),
  phone: optionalPhone,
  departmentCode,
  level: level.default(1),
  auth: authFlags,
  active: z.boolean().default(true),
});

export const adminUserUpdateRequest = z.strictObject({
  userNo: recordNo,
  name: requiredText(LIMITS.userName).optional(),
  employeeNo: text().trim().max(LIMITS.employeeNo).optional(),
  phone: optionalPhone,
  departmentCode,
  level: level.optional(),
  auth: authFlags.optional(),
  active: z.boolean().optional(),
  /** An administrator may set a new password; the user's sessions end. */
  password: newPassword.optional(),
});

export type AdminUserCreate = z.input<typeof adminUserCreateRequest>;
export type AdminUserUpdate = z.input<typeof adminUserUpdateRequest>;

export interface AdminUserRow {
  userNo: number;
  userId: string;
  email: string;
  name: string;
  employeeNo: string | null;
  phone: string | null;
  departmentCode: string | null;
  departmentName: string | null;
  level: number;
  auth: AuthFlags;
  active: boolean;
  createdAt: string;
}

export const userPickerRequest = pagingRequest.safeExtend({ type: z.enum(['name', 'userId']).optional() });

/** A user as pickers show them. */
export interface UserPick {
  userNo: number;
  userId: string;
  name: string;
  departmentCode: string | null;
  departmentName: string | null;
}
