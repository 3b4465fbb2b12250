import { useTranslation } from 'react-i18next';
import type { NoteStatus } from '@eln/shared';
import { Badge, type BadgeTone } from '../../ui/Badge';

const TONES: Record<NoteStatus, BadgeTone> = { W: 'info', R: 'warning', T: 'success', F: 'neutral' };

/** A note's status: writing (W), signatures requested (R), signed (T), finished (F). */
export function NoteStatusBadge({ status, testId }: { status: NoteStatus; testId?: string }) {
  const { t } = useTranslation('editor');
  return (
    <Badge tone={TONES[status]} dot testId={testId}>
      {t(`notes.status.${status}`)}
    </Badge>
  );
}

/** One or two letters for an avatar. */
export function initialsOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  const parts = trimmed.split(/\s+/);
  const first = parts[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  return /^[A-Za-z]/.test(first) ? (first.charAt(0) + last.charAt(0)).toUpperCase() : (Array.from(trimmed)[0] ?? '?');
}
