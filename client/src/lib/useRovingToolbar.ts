import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent } from 'react';

/** A toolbar's items: its enabled buttons and selects, except those of a popover it holds (they Tab as usual). */
const ITEM = 'button:not([disabled]), select:not([disabled])';
const OWN_KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];

function itemsOf(toolbar: HTMLElement): HTMLElement[] {
  return [...toolbar.querySelectorAll<HTMLElement>(ITEM)].filter((item) => !item.closest('[data-roving-skip]'));
}

/**
 * The WAI-ARIA toolbar pattern: the toolbar is one Tab stop (the item last used, else the first), and
 * Left/Right (wrapping), Home and End move between its items. Tab order is set on the DOM after every
 * render, since items appear and become disabled as the selection moves.
 */
export function useRovingToolbar<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const current = useRef<HTMLElement | null>(null);

  const settle = useCallback(() => {
    const toolbar = ref.current;
    if (!toolbar) return;
    const items = itemsOf(toolbar);
    const stop = current.current && items.includes(current.current) ? current.current : items[0];
    for (const item of items) item.tabIndex = item === stop ? 0 : -1;
  }, []);

  useLayoutEffect(settle);

  const onFocus = (event: FocusEvent<T>) => {
    const target = event.target as HTMLElement;
    if (!ref.current || !itemsOf(ref.current).includes(target)) return;
    current.current = target;
    settle();
  };

  const onKeyDown = (event: KeyboardEvent<T>) => {
    if (!ref.current || !OWN_KEYS.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    const items = itemsOf(ref.current);
    const at = items.indexOf(event.target as HTMLElement);
    if (at < 0) return;
    event.preventDefault();
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? items.length - 1
          : (at + (event.key === 'ArrowRight' ? 1 : -1) + items.length) % items.length;
    items[next]?.focus();
  };

  return { ref, onFocus, onKeyDown };
}
