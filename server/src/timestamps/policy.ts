import { eq } from 'drizzle-orm';
import { ERR, type TimestampSubject } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { exportJobs, noteSignatures } from '../db/schema.js';
import { canSeeJob } from '../exports/policy.js';
import { AppError } from '../http/errors.js';
import { requireVisibleNote } from '../notes/queries.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may re-verify a record's time-stamp: whoever may read the record. A signature's and a version's are
 * their note's readers'; an export's, those who see the job; the audit chain's, administrators.
 */

/** Refuses (404, as for the record itself) unless the caller may read the stamped record. */
export async function requireStampReader(q: Queryable, user: AuthUser, kind: TimestampSubject, id: string): Promise<void> {
  switch (kind) {
    case 'signature':
    case 'signatureRemoval': {
      const signatureId = Number(id);
      if (!Number.isSafeInteger(signatureId)) throw new AppError(ERR.notFound);
      const [row] = await q
        .select({ noteNo: noteSignatures.noteNo })
        .from(noteSignatures)
        .where(eq(noteSignatures.signatureId, signatureId));
      if (!row) throw new AppError(ERR.notFound);
      await requireVisibleNote(q, user, row.noteNo);
      return;
    }
    case 'version': {
      const noteNo = Number(id.split(':')[0]);
      if (!Number.isSafeInteger(noteNo)) throw new AppError(ERR.notFound);
      await requireVisibleNote(q, user, noteNo);
      return;
    }
    case 'export': {
      const [job] = await q
        .select()
        .from(exportJobs)
        .where(eq(exportJobs.jobId, id))
        .catch(() => []);
      if (!job || canSeeJob(user, job) !== 'allowed') throw new AppError(ERR.notFound);
      return;
    }
    case 'auditAnchor':
      if (!isAdministrator(user)) throw new AppError(ERR.forbidden);
  }
}
