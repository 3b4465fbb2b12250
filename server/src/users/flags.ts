import type { AuthFlags } from '@eln/shared';
import type { users } from '../db/schema.js';

type FlagColumns = Pick<typeof users.$inferSelect, 'authProject' | 'authSchema' | 'authDropbox' | 'authTemplate'>;

const yn = (value: boolean) => (value ? 'Y' : 'N');

/** The database keeps the auth flags as booleans; the API speaks the spec's "Y"/"N". */
export function toAuthFlags(row: FlagColumns): AuthFlags {
  return { project: yn(row.authProject), schema: yn(row.authSchema), dropbox: yn(row.authDropbox), template: yn(row.authTemplate) };
}

export function fromAuthFlags(flags: AuthFlags): FlagColumns {
  return {
    authProject: flags.project === 'Y',
    authSchema: flags.schema === 'Y',
    authDropbox: flags.dropbox === 'Y',
    authTemplate: flags.template === 'Y',
  };
}
