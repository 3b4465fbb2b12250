import { blocksToDoc, ERR, newContentViolations, TRANSITION_RULES, type PmNode, type SavedBlock } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import { AppError } from '../http/errors.js';

/**
 * The content checks at /note/temp and /note/save, refused with 2012 and the violations. The document
 * must fit the editor's schema (what a client speaking Yjs directly may have put in the live document
 * never becomes a version), and break no content rule its last saved version did not already break (so
 * an old note stays savable). Only the document rules count here: a table's transition rules judge one
 * change, and they were checked on each live update; between two versions lie many changes (split, then
 * delete) that they would misjudge.
 */
export function assertContentRules(content: PmNode, saved: readonly SavedBlock[]): void {
  const schemaProblem = schemaViolation(content);
  if (schemaProblem) throw new AppError(ERR.noteContent, { data: { violations: [{ rule: 'schema', detail: schemaProblem }] } });
  const violations = newContentViolations(content, blocksToDoc(saved)).filter((violation) => !TRANSITION_RULES.has(violation.rule));
  if (violations.length) throw new AppError(ERR.noteContent, { data: { violations } });
}
