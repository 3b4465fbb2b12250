import { AUDIT_HEAD_LINE_PREFIX, type AuditChainHead } from '@eln/shared';

const HEAD = /^ seq=(\d+) hash=([0-9a-f]{64})$/;

/** The chain head an audit CSV export names on its last line, or null when the text names none. */
export function exportHeadOf(text: string): AuditChainHead | null {
  const last = text.trimEnd().split(/\r?\n/).at(-1) ?? '';
  const match = last.startsWith(AUDIT_HEAD_LINE_PREFIX) ? HEAD.exec(last.slice(AUDIT_HEAD_LINE_PREFIX.length)) : null;
  if (!match) return null;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) && seq > 0 ? { seq, hash: match[2] as string } : null;
}

/** Bytes read from the end of an export: its last line names the head, and the export may be large. */
const TAIL_BYTES = 4096;

/** The head an exported file names, read from its end only. */
export async function readExportHead(file: Blob): Promise<AuditChainHead | null> {
  return exportHeadOf(await file.slice(Math.max(0, file.size - TAIL_BYTES)).text());
}
