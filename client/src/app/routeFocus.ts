/** How long a new page may take to show its heading (its chunk, then its data). */
const WAIT_MS = 10_000;

/** The page's heading: the main content's first h1 (the sign-in pages have no main). */
function heading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('#main h1') ?? document.querySelector<HTMLElement>('h1');
}

/**
 * Focus is nowhere on purpose: on the body, gone with the old page, or still on the header's link that
 * navigated. Focus anywhere else (a note's tab that stays, a dialog, the editor a new note focuses) was
 * put there by the user or the page, and stays.
 */
function focusIsLoose(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active.closest('.app-header') !== null;
}

/**
 * After a route change, moves focus to the new page's h1 (focusable by script only, tabIndex -1) once it is
 * shown, so a screen reader reads the page that opened and Tab goes on from its top. Returns the cancel.
 */
export function focusHeadingWhenShown(): () => void {
  /** True when settled: the heading has focus, or something else took it. */
  const attempt = (): boolean => {
    if (!focusIsLoose()) return true;
    const target = heading();
    if (!target) return false;
    if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    return true;
  };
  if (attempt()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (attempt()) stop();
  });
  const timer = window.setTimeout(() => stop(), WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}
