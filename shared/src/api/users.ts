import { z } from 'zod';
import { ADMIN_LEVEL, LIMITS } from '../limits.js';
import { emailField, newPassword, optionalText, phoneField, recordNo, requiredText, text } from '../validation.js';
import { ERR } from '../errors.js';
import { listAnswer, pagingRequest } from './paging.js';
import { defineCall, noAnswer } from './call.js';
import { authFlags } from './identity.js';

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

export const adminUserRow = z.strictObject({
  userNo: z.number(),
  userId: z.string(),
  /** The same as userId (the ID is the email), for screens that show it as an address. */
  email: z.string(),
  name: z.string(),
  employeeNo: z.string().nullable(),
  phone: z.string().nullable(),
  departmentCode: z.string().nullable(),
  departmentName: z.string().nullable(),
  level: z.number(),
  auth: authFlags,
  active: z.boolean(),
  createdAt: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

export const userPickerRequest = pagingRequest.safeExtend({ type: z.enum(['name', 'userId']).optional() });

/** A user as pickers show them. */
export const userPick = z.strictObject({
  userNo: z.number(),
  userId: z.string(),
  name: z.string(),
  departmentCode: z.string().nullable(),
  departmentName: z.string().nullable(),
});
export type UserPick = z.infer<typeof userPick>;

/** People (server/src/users): administrators keep the accounts; every signed-in user picks people. */
export const userCalls = {
  picker: defineCall({
    path: '/v1/user/list',
    auth: 'user',
    kind: 'query',
    summary: 'Active users by name or ID, for pickers.',
    request: userPickerRequest,
    answer: listAnswer(userPick),
    errors: [ERR.userLookup],
    failure: ERR.userLookup,
  }),
  list: defineCall({
    path: '/v1/admin/user/list',
    auth: 'admin',
    kind: 'query',
    summary: 'Every user account, newest first, searched by name, ID, employee number or department, within creation dates.',
    request: adminUserListRequest,
    answer: listAnswer(adminUserRow),
    errors: [ERR.forbidden, ERR.userLookup],
    failure: ERR.userLookup,
  }),
  detail: defineCall({
    path: '/v1/admin/user/detail',
    auth: 'admin',
    kind: 'query',
    summary: 'One user account, as the administrator edits it.',
    request: userNoRequest,
    answer: adminUserRow,
    errors: [ERR.forbidden, ERR.notFound, ERR.userLookup],
    failure: ERR.userLookup,
  }),
  create: defineCall({
    path: '/v1/admin/user/create',
    sessionOnly: true,
    auth: 'admin',
    kind: 'command',
    summary: 'Creates a user account with its level, flags and department.',
    request: adminUserCreateRequest,
    answer: z.strictObject({ userNo: z.number() }),
    errors: [ERR.forbidden, ERR.userDuplicate, ERR.departmentMissing],
  }),
  update: defineCall({
    path: '/v1/admin/user/update',
    sessionOnly: true,
    auth: 'admin',
    kind: 'command',
    summary: 'Changes a user account; deactivating it or setting its password ends its sessions. No one demotes or deactivates themself.',
    request: adminUserUpdateRequest,
    answer: noAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.selfDemotion, ERR.departmentMissing],
  }),
} as const;
