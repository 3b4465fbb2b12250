import { blocksToDoc, contentViolations, differsFromSaved, templateDocumentName } from '@eln/shared';
import { tableText } from '../../collab/documents/contentSnapshots.js';
import type { Queryable } from '../../db/client.js';
import type { SavedContent } from '../../notes/contentCheck.js';
import type { Services } from '../../services.js';
import { approvedContent } from '../queries.js';
import type { TemplateRecord } from '../record.js';

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
