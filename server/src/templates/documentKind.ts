import { eq } from 'drizzle-orm';
import type { AuthUser } from '../auth/authUser.js';
import { canonicalRecordNo, type DocumentKind } from '../collab/documents/documentKinds.js';
import type { Db, Queryable } from '../db/client.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { templates } from '../db/schema.js';
import { templateDocumentAccess, templateOpenForWriting } from './policy.js';
import { lockTemplates } from './queries.js';

/**
 * Records a writer of the draft now open, under the revision it will be checked in as (the template's
 * check-in count plus one). Racing a check-in that holds the template's row, it waits for it (the foreign
 * key's lock) and counts the writer for the revision checked in, though their update, stored after it,
 * is refused: at worst someone is counted whose writing was not kept, never the other way round.
 */
const insertTemplateWriter = fixedStatement(
  'insert_template_writer',
  `insert into template_writers (template_no, revision, user_no)
     select template_no, revision + 1, $2 from templates where template_no = $1
   on conflict do nothing`,
);

/**
 * Live template drafts `template.<no>`: opened by those who manage templates, written only by its author
 * or an administrator while the template is a draft. A check-in locks the template's row `for update`,
 * so each live update is either stored before it (and checked in) or refused after it; each writer is
 * recorded before their first update is stored, so a check-in's revision knows everyone who wrote in it.
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
    writerRecordedBeforeStoring: true,
    async recordWriter(user: AuthUser, id: string) {
      const templateNo = canonicalRecordNo(id);
      if (templateNo !== null) await insertTemplateWriter(db, [templateNo, user.userNo]);
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
