import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The box a table scrolls sideways in. While the table is wider than its place (a narrow screen, long
 * values), the box is a named region in the tab order, so that keyboard users can reach it to scroll it
 * (WCAG 2.1.1; axe's scrollable-region-focusable); while the table fits, it is a plain box and no tab stop.
 */
export function TableScroll({ label, children }: { label?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return overflows ? (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box keyboard users must reach to scroll
    <div ref={box} className="table-scroll" role="region" tabIndex={0} aria-label={label ?? t('common.tableScroll')} data-overflows="true">
      {children}
    </div>
  ) : (
    <div ref={box} className="table-scroll">
      {children}
    </div>
  );
}
