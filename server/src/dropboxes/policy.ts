import { eq, type SQL } from 'drizzle-orm';
import { DROPBOX_STATUS, ERR } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { dropboxes } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may do what with dropboxes: every rule once, as a verdict. Routes enforce the verdicts with the
 * codes below; answers carry them to the client as `abilities`.
 */

export type Caller = Pick<AuthUser, 'level' | 'auth'>;
export type ManageVerdict = 'allowed' | 'noDropboxFlag';
export type ReadVerdict = 'allowed' | 'hidden';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { noDropboxFlag: ERR.forbidden };
/** An unused dropbox is hidden from those who cannot manage it: it answers as missing. */
export const READ_REFUSALS: Refusals<ReadVerdict> = { hidden: ERR.notFound };

/** Users with the dropbox flag, and administrators, create dropboxes, change them and import their rows. */
export function canManageDropboxes(user: Caller): ManageVerdict {
  return isAdministrator(user) || user.auth.dropbox === 'Y' ? 'allowed' : 'noDropboxFlag';
}

/** Everyone reads used dropboxes (notes offer them); managers read unused ones too. */
export function canReadDropbox(user: Caller, dropbox: { status: string }): ReadVerdict {
  return dropbox.status === DROPBOX_STATUS.used || canManageDropboxes(user) === 'allowed' ? 'allowed' : 'hidden';
}

/** `canReadDropbox` as the condition lists and counts filter by (undefined: every dropbox). */
export function visibleDropboxesSql(user: Caller): SQL | undefined {
  return canManageDropboxes(user) === 'allowed' ? undefined : eq(dropboxes.status, DROPBOX_STATUS.used);
}

export type OfferVerdict = 'allowed' | 'notOffered';
/** A cell is given only a used dropbox: an unused one answers as missing, whoever asks. */
export const OFFER_REFUSALS: Refusals<OfferVerdict> = { notOffered: ERR.notFound };

/** New cells offer used dropboxes only (spec §5); cells that already hold an unused one keep it. */
export function canOfferDropbox(dropbox: { status: string }): OfferVerdict {
  return dropbox.status === DROPBOX_STATUS.used ? 'allowed' : 'notOffered';
}
