import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { focusables } from '../lib/focusables';

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

interface LayerOptions {
  /** Escape calls this; without it Escape does nothing. */
  onEscape?: (() => void) | undefined;
  /** Receives focus on open; else the first focusable element of the first of `focusFirstIn` that has one, else of the container, else the container. */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
  /** Selectors of the parts searched first for the element to focus on open (a dialog's body, then its footer: not its close button). */
  focusFirstIn?: readonly string[] | undefined;
  /** Receives focus on close when what had it before is gone (a menu item whose menu closed). */
  returnFocus?: RefObject<HTMLElement | null> | undefined;
}

export function useModalLayer(container: RefObject<HTMLElement | null>, options: LayerOptions = {}): void {
  const id = useId();
  const onEscape = useRef(options.onEscape);
  onEscape.current = options.onEscape;
  const initialFocus = options.initialFocus;
  const returnFocus = options.returnFocus;
  // Read while rendering, before the layer's content mounts: an autofocused field inside it would be
  // the active element by the time effects run.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  useEffect(() => {
    const previous = opener;
    stack.push(id);
    syncBackground();
    const box = container.current;
    const preferred = (options.focusFirstIn ?? [])
      .map((selector) => box?.querySelector<HTMLElement>(selector))
      .flatMap((part) => (part ? focusables(part).slice(0, 1) : []));
    const target = initialFocus?.current ?? preferred[0] ?? (box ? focusables(box)[0] : undefined) ?? box;
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
      // Unless what the dialog did put focus somewhere on purpose (a table inserted: the editor).
      const active = document.activeElement;
      if (active && active !== document.body && !box?.contains(active)) return;
      // eslint-disable-next-line react-hooks/exhaustive-deps -- the element to return to is the one there when the layer closes
      const back = previous?.isConnected ? previous : returnFocus?.current;
      back?.focus({ preventScroll: true });
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the layer lives as long as the component; focus targets are read once, on open
  }, [id]);
}
