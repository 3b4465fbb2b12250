import { useEffect, useRef } from 'react';
import { TIMING } from '@eln/shared';

/**
 * The end of a list that continues: a button (for keyboards and as a fallback) that also presses itself
 * when it scrolls within TIMING.infiniteScrollThresholdPx of view inside its scroll container (the
 * nearest `[data-scroll-root]`), so the next page is there before the reader reaches the end.
 */
export function LoadMore({ onMore, loading, label, testId }: { onMore(): void; loading: boolean; label: string; testId?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const more = useRef(onMore);
  more.current = onMore;

  useEffect(() => {
    const element = button.current;
    if (!element || loading || typeof IntersectionObserver === 'undefined') return;
    const root = element.closest('[data-scroll-root]');
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) more.current();
      },
      { root, rootMargin: `0px 0px ${TIMING.infiniteScrollThresholdPx}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);

  return (
    <button
      ref={button}
      type="button"
      className="link-btn load-more"
      onClick={onMore}
      disabled={loading}
      aria-busy={loading}
      data-testid={testId}
    >
      {label}
    </button>
  );
}
