import { eq, type SQL } from 'drizzle-orm';
import { ERR, SCHEMA_STATUS } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { schemas, schemaTypes } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may do what with schemas: every rule once, as a verdict. Routes enforce the verdicts with the codes
 * below; answers carry them to the client as `abilities`.
 */

export type Caller = Pick<AuthUser, 'level' | 'auth'>;
export type ManageVerdict = 'allowed' | 'noSchemaFlag';
export type ReadVerdict = 'allowed' | 'hidden';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { noSchemaFlag: ERR.forbidden };
/** An unused schema type is hidden from those who cannot manage it: spec §8, 4003 (the screen returns to /schema). */
export const READ_REFUSALS: Refusals<ReadVerdict> = { hidden: ERR.schemaCheck };

/** Users with the schema flag, and administrators, create and change schema types and their schemas. */
export function canManageSchemas(user: Caller): ManageVerdict {
  return isAdministrator(user) || user.auth.schema === 'Y' ? 'allowed' : 'noSchemaFlag';
}

/** Everyone reads what is used (notes offer it); managers read unused types, schemas and entries too. */
export function canReadSchemaItem(user: Caller, item: { status: string }): ReadVerdict {
  return item.status === SCHEMA_STATUS.used || canManageSchemas(user) === 'allowed' ? 'allowed' : 'hidden';
}

/** `canReadSchemaItem` for types, as the condition lists and counts filter by (undefined: every type). */
export function visibleSchemaTypesSql(user: Caller): SQL | undefined {
  return canManageSchemas(user) === 'allowed' ? undefined : eq(schemaTypes.status, SCHEMA_STATUS.used);
}

/** `canReadSchemaItem` for a type's schemas, as the condition lists filter by (undefined: every schema). */
export function visibleSchemasSql(user: Caller): SQL | undefined {
  return canManageSchemas(user) === 'allowed' ? undefined : eq(schemas.status, SCHEMA_STATUS.used);
}

export type CopyVerdict = 'allowed' | 'notOffered';
/** A note copies only what the catalogue offers; anything else answers as a schema that cannot be opened (4003). */
export const COPY_REFUSALS: Refusals<CopyVerdict> = { notOffered: ERR.schemaCheck };

/** A schema block copies a used schema of a used type, and only its used entries: the same for everyone, managers too. */
export function canCopySchema(type: { status: string }, schema: { status: string }): CopyVerdict {
  return type.status === SCHEMA_STATUS.used && schema.status === SCHEMA_STATUS.used ? 'allowed' : 'notOffered';
}
