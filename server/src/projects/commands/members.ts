import { ERR, splitList, type SignatureList } from '@eln/shared';
import type { Queryable } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';
import { resolveSignatureList } from '../queries.js';

/** A project's participants as the request lists them, resolved; refuses users (5004) or departments (5003) that do not exist. */
export async function resolveMembers(q: Queryable, signatureList: SignatureList) {
  const resolved = await resolveSignatureList(q, splitList(signatureList.user), splitList(signatureList.department));
  if (resolved.missingUsers.length) throw new AppError(ERR.participantMissing, { data: { missing: resolved.missingUsers } });
  if (resolved.missingDepartments.length) {
    throw new AppError(ERR.departmentMissing, { data: { missing: resolved.missingDepartments } });
  }
  return { userNos: resolved.userNos, departmentCodes: splitList(signatureList.department) };
}

/** Runs a change that writes a project's title; a title taken meanwhile (the unique index) answers 2001. */
export async function refusingDuplicateTitles<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ERR.projectDuplicate);
    throw error;
  }
}
