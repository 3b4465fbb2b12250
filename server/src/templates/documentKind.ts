import { eq } from 'drizzle-orm';
import type { AuthUser } from '../auth/authUser.js';
import { canonicalRecordNo, type DocumentKind } from '../collab/documents/documentKinds.js';
import type { Db, Queryable } from '../db/client.js';
import { templates } from '../db/schema.js';
import { templateDocumentAccess, templateOpenForWriting } from './policy.js';
import { lockTemplates } from './queries.js';

/**
 * Live template drafts `template.<no>`: opened by those who manage templates, written only while the
 * template is a draft. A check-in locks the template's row `for update`, so each live update is either
 * stored before it (and checked in) or refused after it.
 */
export function templateDocumentKind(db: Db): DocumentKind {
  return {
    prefix: 'template',
    noteContent: true,
    async authorize(user: AuthUser, id: string) {
      const templateNo = canonicalRecordNo(id);
      if (templateNo === null) return null;
      const [template] = await db.select().from(templates).where(eq(templates.templateNo, templateNo));
      return templateDocumentAccess(user, template);
    },
    async writable(ids: string[], tx: Queryable) {
      const templateNos = ids.map(canonicalRecordNo);
      const locked = await lockTemplates(
        tx,
        templateNos.filter((templateNo) => templateNo !== null),
        'share',
      );
      return templateNos.map((templateNo) => {
        const template = templateNo === null ? undefined : locked.get(templateNo);
        return Boolean(template && templateOpenForWriting(template));
      });
    },
  };
}
