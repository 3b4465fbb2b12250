import { blocksToDoc, contentViolations, differsFromSaved, templateDocumentName, type TemplateEditorAnswer } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { tableText } from '../collab/contentSnapshots.js';
import type { Queryable } from '../db/client.js';
import { enforce } from '../http/verdicts.js';
import type { SavedContent } from '../notes/contentCheck.js';
import type { Services } from '../services.js';
import { canManageTemplates, MANAGE_REFUSALS } from './policy.js';
import { approvedContent, requireReadableTemplate, templateDetail } from './queries.js';
import type { TemplateRecord } from './record.js';

/** The content a draft is compared with: its last approved version (nothing before the first). */
export async function approvedBaseline(q: Queryable, template: TemplateRecord): Promise<SavedContent> {
  const approved = await approvedContent(q, template);
  const blocks = approved?.blocks ?? [];
  return { blocks, violations: contentViolations(blocksToDoc(blocks)) };
}

/** The live draft (the server's copy), its blocks, and whether they differ from the last approved version. */
export async function liveDraft(q: Queryable, live: Services['live'], template: TemplateRecord) {
  const content = await live.snapshot(templateDocumentName(template.templateNo));
  const baseline = await approvedBaseline(q, template);
  const current = content.savedBlocks('TEMPLATE');
  return { content, baseline, current, changed: differsFromSaved(current, baseline.blocks, tableText) };
}

/** A template and its live draft, as its editor opens them: for those who manage templates. */
export async function templateEditor({ db, live }: Services, user: AuthUser, templateNo: number): Promise<TemplateEditorAnswer> {
  enforce(canManageTemplates(user), MANAGE_REFUSALS);
  const template = await requireReadableTemplate(db, user, templateNo);
  const content = await live.snapshot(templateDocumentName(template.templateNo));
  return { template: await templateDetail(db, user, template.templateNo), blockList: content.savedBlocks('TEMPLATE') };
}
