import type { ReactNode } from 'react';

/**
 * A toolbar button that keeps the editor's selection (no focus on mouse down) and says its state: a
 * toggle is pressed or not (`active`), a button opening a popup is expanded or not (`expanded`).
 */
export function ToolButton({
  label,
  onClick,
  active,
  expanded,
  disabled,
  testId,
  children,
  text,
}: {
  label: string;
  onClick(): void;
  active?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
  text?: string;
}) {
  return (
    <button
      type="button"
      className={`tool-btn${active || expanded ? ' is-active' : ''}${text ? ' tool-btn-text' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      aria-pressed={active === undefined ? undefined : active}
      aria-expanded={expanded}
      aria-haspopup={expanded === undefined ? undefined : 'true'}
      title={label}
      data-testid={testId}
    >
      {children}
      {text ? <span className="tool-btn-label">{text}</span> : null}
    </button>
  );
}

export const Sep = () => <span className="tool-sep" aria-hidden="true" />;
