const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** What can take focus inside `container`, in document order (shown ones, and the one with focus). */
export function focusables(container: ParentNode): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
}

/**
 * The element Tab (or Shift+Tab, `forward` false) reaches from `from` as if everything inside `from` were
 * one stop: the next one after it in document order, or the last one before it.
 */
export function tabStopBeside(from: HTMLElement, forward: boolean): HTMLElement | null {
  // A roving toolbar's other items (tabIndex -1) are not Tab stops.
  const candidates = focusables(document).filter((el) => el.tabIndex >= 0 && !from.contains(el));
  const side = forward ? Node.DOCUMENT_POSITION_FOLLOWING : Node.DOCUMENT_POSITION_PRECEDING;
  const beside = candidates.filter((el) => from.compareDocumentPosition(el) & side);
  return (forward ? beside[0] : beside.at(-1)) ?? null;
}
