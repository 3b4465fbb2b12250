import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../ui/Badge';
import { isAuditAction } from './auditQuery';
import { CheckIcon, CopyIcon } from './icons';
import { actionTone, isKnownTargetType } from './labels';
import { formatAuditTime } from './time';

/** The label of an action code; an unknown code shows as itself. */
export function useActionLabel(): (action: string) => string {
  const { t } = useTranslation('audit');
  return useCallback((action: string) => (isAuditAction(action) ? t(`actions.${action}`) : action), [t]);
}

/** The label of a target type; an unknown type shows as itself. */
export function useTargetTypeLabel(): (type: string) => string {
  const { t } = useTranslation('audit');
  return useCallback((type: string) => (isKnownTargetType(type) ? t(`targetTypes.${type}`) : type), [t]);
}

export function ActionBadge({ action, testId }: { action: string; testId?: string }) {
  const label = useActionLabel();
  return (
    <span className="audit-action" data-action={action} data-testid={testId}>
      <Badge tone={actionTone(action)} title={action}>
        {label(action)}
      </Badge>
    </span>
  );
}

/** Date and time in the viewer's zone, the zone named beneath (or beside, with `inline`). */
export function AuditTimeText({ iso, inline = false }: { iso: string; inline?: boolean }) {
  const time = formatAuditTime(iso);
  if (!time) return <span className="cell-muted">—</span>;
  return (
    <time dateTime={time.utc} className={inline ? 'audit-time audit-time-inline' : 'audit-time'} title={`${time.utc} (UTC)`}>
      <span className="audit-time-main">
        {time.date} <span className="audit-clock">{time.time}</span>
      </span>
      <span className="audit-zone">{time.zone}</span>
    </time>
  );
}

/** The target as "Type #id". */
/** Longer identifiers (session UUIDs) are shortened in the list, whole on hover and in the detail. */
const COMPACT_ID_LENGTH = 12;

export function TargetText({ type, id, compact = false }: { type: string | null; id: string | null; compact?: boolean }) {
  const label = useTargetTypeLabel();
  if (!type && !id) return <span className="cell-muted">—</span>;
  const shortened = compact && id !== null && id.length > COMPACT_ID_LENGTH;
  return (
    <span className="audit-target">
      {type ? <span className="audit-target-type">{label(type)}</span> : null}
      {id ? (
        <span className="audit-target-id" title={shortened ? id : undefined}>
          {shortened ? `${id.slice(0, 8)}…` : id}
        </span>
      ) : null}
    </span>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* permission refused: try the old way */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A small button that copies `text`, confirming with a check for a moment. */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useTranslation('audit');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    const ok = await copyText(text);
    setState(ok ? 'copied' : 'failed');
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setState('idle'), ok ? 2000 : 5000);
  };
  const name = t('detail.copy', { label });
  return (
    <span className="copy-wrap">
      <button
        type="button"
        className={state === 'copied' ? 'icon-btn icon-btn-sm copy-btn is-copied' : 'icon-btn icon-btn-sm copy-btn'}
        onClick={() => void copy()}
        aria-label={name}
        title={name}
        data-testid={testId}
      >
        {state === 'copied' ? <CheckIcon size={15} /> : <CopyIcon size={15} />}
      </button>
      <span className={state === 'failed' ? 'copy-status copy-status-failed' : 'copy-status'} role="status">
        {state === 'copied' ? t('detail.copied') : state === 'failed' ? t('detail.copyFailed') : ''}
      </span>
    </span>
  );
}
