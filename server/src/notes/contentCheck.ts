import { blocksToDoc, ERR, newContentViolations, TRANSITION_RULES, type PmNode, type SavedBlock } from '@eln/shared';
import { AppError } from '../http/errors.js';

/**
 * The content rules at /note/temp and /note/save: the note must break no rule its last saved version
 * did not already break (so an old note stays savable), refused with 2012 and the violations. Only
 * the document rules count here: a table's transition rules judge one change, and they were checked on
 * each live update; between two versions lie many changes (split, then delete) that they would misjudge.
 */
export function assertContentRules(content: PmNode, saved: readonly SavedBlock[]): void {
  const violations = newContentViolations(content, blocksToDoc(saved)).filter((violation) => !TRANSITION_RULES.has(violation.rule));
  if (violations.length) throw new AppError(ERR.noteContent, { data: { violations } });
}
