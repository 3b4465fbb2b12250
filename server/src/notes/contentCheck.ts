import { contentViolations, ERR, type PmNode } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import { AppError } from '../http/errors.js';

/**
 * Refuses (2012) a document that does not fit the editor's schema or breaks a content rule of spec §5:
 * what a client speaking Yjs directly may have put in the live document never becomes a version.
 */
export function requireConformingContent(content: PmNode): void {
  const schemaProblem = schemaViolation(content);
  if (schemaProblem) throw new AppError(ERR.noteContent, { data: { violations: [{ rule: 'schema', detail: schemaProblem }] } });
  const violations = contentViolations(content);
  if (violations.length) throw new AppError(ERR.noteContent, { data: { violations } });
}
