import { useEffect, useId, useRef, type RefObject } from 'react';

/**
 * The stack of open modal layers. Only the top one reacts to Escape and keeps Tab inside itself; while any
 * is open the application root is inert (no clicks, no focus, hidden from assistive technology) and the
 * page does not scroll.
 */
const stack: string[] = [];

function syncBackground(): void {
  const root = document.getElementById('root');
  root?.toggleAttribute('inert', stack.length > 0);
  document.body.classList.toggle('modal-open', stack.length > 0);
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
}

interface LayerOptions {
  /** Escape calls this; without it Escape does nothing. */
  onEscape?: (() => void) | undefined;
  /** Receives focus on open; else the first focusable element, else the container. */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
}

export function useModalLayer(container: RefObject<HTMLElement | null>, options: LayerOptions = {}): void {
  const id = useId();
  const onEscape = useRef(options.onEscape);
  onEscape.current = options.onEscape;
  const initialFocus = options.initialFocus;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(id);
    syncBackground();
    const box = container.current;
    const target = initialFocus?.current ?? (box ? focusables(box)[0] : undefined) ?? box;
    target?.focus({ preventScroll: true });

    const onKeyDown = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== id || !container.current) return;
      if (event.key === 'Escape') {
        if (onEscape.current) {
          event.preventDefault();
          event.stopPropagation();
          onEscape.current();
        }
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(container.current);
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (!first || !last) {
        event.preventDefault();
        container.current.focus();
      } else if (event.shiftKey && (active === first || !container.current.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !container.current.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      const index = stack.lastIndexOf(id);
      if (index >= 0) stack.splice(index, 1);
      syncBackground();
      if (previous && previous.isConnected) previous.focus({ preventScroll: true });
    };
    // The layer lives as long as the component; focus targets are read once, on open.
  }, [id]);
}
