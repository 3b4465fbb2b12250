import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../ui/icons';
import { useModalLayer } from './layer';

export interface DialogProps {
  title: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Closes on Escape, the close button and (with closeOnBackdrop) a click outside. Without it the dialog must be answered. */
  onClose?: (() => void) | undefined;
  closeOnBackdrop?: boolean;
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg';
  icon?: ReactNode;
  tone?: 'info' | 'success' | 'error' | 'warning';
  testId?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes on close when what opened the dialog is gone (useModalLayer). */
  returnFocus?: RefObject<HTMLElement | null>;
}

/** Where a dialog puts focus on open: its first field or control, else its first footer button; its close button last. */
const DIALOG_FOCUS_ORDER = ['.modal-body', '.modal-footer'] as const;

/** An accessible modal dialog, rendered above the application. Mount it to open it, unmount to close. */
export function Dialog({
  title,
  children,
  footer,
  onClose,
  closeOnBackdrop = false,
  role = 'dialog',
  size = 'sm',
  icon,
  tone = 'info',
  testId,
  initialFocus,
  returnFocus,
}: DialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useModalLayer(ref, { onEscape: onClose, initialFocus, returnFocus, focusFirstIn: DIALOG_FOCUS_ORDER });

  return createPortal(
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a click on the backdrop closes, as Escape does from the keyboard
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (closeOnBackdrop && onClose && event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        className={`modal modal-${size} modal-tone-${tone}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children ? bodyId : undefined}
        tabIndex={-1}
        data-testid={testId}
      >
        <div className="modal-header">
          {icon ? <span className="modal-icon">{icon}</span> : null}
          <h2 className="modal-title" id={titleId}>
            {title}
          </h2>
          {onClose ? (
            <button type="button" className="icon-btn modal-close" onClick={onClose} aria-label={t('common.close')}>
              <CloseIcon size={18} />
            </button>
          ) : null}
        </div>
        {children ? (
          <div className="modal-body" id={bodyId}>
            {children}
          </div>
        ) : null}
        {footer ? <div className="modal-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
