import { ERR, type MailStatus } from '@eln/shared';
import type { Refusals } from '../http/verdicts.js';

/*
 * What administrators may do with a mail of the outbox (the calls are theirs alone: `auth: 'admin'`).
 */

export type RetryVerdict = 'allowed' | 'notFailed';
export const RETRY_REFUSALS: Refusals<RetryVerdict> = { notFailed: ERR.mailNotFailed };

/** Only a failed mail is sent again: a pending or sending one is on its way, a sent one arrived, a withheld one must not go. */
export function canRetryMail(mail: { status: MailStatus }): RetryVerdict {
  return mail.status === 'failed' ? 'allowed' : 'notFailed';
}
