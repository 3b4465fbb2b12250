import type { ReactNode } from 'react';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './icons';

type Tone = 'error' | 'success' | 'info' | 'warning';

const ICONS: Record<Tone, ReactNode> = {
  error: <AlertIcon size={18} />,
  success: <CheckCircleIcon size={18} />,
  info: <InfoIcon size={18} />,
  warning: <AlertIcon size={18} />,
};

/** A message inside a form or page; errors are announced as alerts, others politely. */
export function InlineAlert({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <div className={`inline-alert inline-alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <span className="inline-alert-icon">{ICONS[tone]}</span>
      <div className="inline-alert-body">{children}</div>
    </div>
  );
}
