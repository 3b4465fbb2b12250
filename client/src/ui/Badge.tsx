import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'info';

/** A small label: a status, a count, a permission. */
export function Badge({
  tone = 'neutral',
  children,
  title,
  testId,
  dot,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  title?: string;
  testId?: string;
  dot?: boolean;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title} data-testid={testId}>
      {dot ? <span className="badge-dot" aria-hidden="true" /> : null}
      {children}
    </span>
  );
}
