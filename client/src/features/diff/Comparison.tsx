import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BlockChange, ChangeSummary } from '@eln/shared';
import { Button } from '../../ui/Button';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { BlockChangeView, CHANGE_TONE } from './BlockChangeView';
import { changeStops, diffRows, keyStep, nextStop, type DiffView } from './diffRows';
import './diff.css';

const SUMMARY_KINDS = ['added', 'changed', 'removed', 'moved', 'unchanged'] as const;

/** "2 added · 1 changed · …": the counts of the comparison, each in words and (when not zero) its kind's colour. */
function SummaryBar({ summary }: { summary: ChangeSummary }) {
  const { t } = useTranslation('history');
  return (
    <ul className="diff-summary" aria-label={t('diff.summaryLabel')} data-testid="diff-summary">
      {SUMMARY_KINDS.map((kind) => (
        <li
          key={kind}
          className={`diff-summary-item badge badge-${summary[kind] ? CHANGE_TONE[kind] : 'neutral'}`}
          data-kind={kind}
          data-count={summary[kind]}
        >
          {t(`diff.summary.${kind}`, { count: summary[kind] })}
        </li>
      ))}
    </ul>
  );
}

/** Where a key press is someone's typing or a control's own keys (a radio's arrows), not a request to move. */
function isOwnKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A key pressed in a dialog over the page belongs to the dialog. */
const inDialog = (target: EventTarget | null) =>
  target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]') !== null;

/**
 * A comparison of two block lists: the summary, the choice of view (side by side or inline, the page
 * keeps it), "only changes" folding runs of unchanged blocks, and a way through the changes by keyboard
 * (j / k, n / p, ↓ / ↑) or the previous and next buttons, the change reached focused and in view.
 * Shared by the note history and the template versions' comparison.
 */
export function Comparison({
  changes,
  summary,
  view,
  onView,
  onlyChanges,
  onOnlyChanges,
  writersOf,
  keysOnPage = false,
  testId = 'diff',
}: {
  changes: readonly BlockChange[];
  summary: ChangeSummary;
  view: DiffView;
  onView(view: DiffView): void;
  onlyChanges: boolean;
  onOnlyChanges(only: boolean): void;
  writersOf?: (change: BlockChange) => readonly string[] | undefined;
  /** j, k, n and p work anywhere on the page (not only inside the comparison): for a page that is the comparison. */
  keysOnPage?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('history');
  const list = useRef<HTMLOListElement>(null);
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState<number | null>(null);
  const stops = useMemo(() => changeStops(changes), [changes]);
  const rows = useMemo(() => diffRows(changes, onlyChanges, unfolded), [changes, onlyChanges, unfolded]);

  // Another comparison starts with nothing chosen.
  useEffect(() => {
    setCurrent(null);
    setUnfolded(new Set());
  }, [changes]);

  const go = useCallback(
    (step: 1 | -1) => {
      const next = nextStop(stops, current, step);
      if (next === null) return;
      setCurrent(next);
      const element = list.current?.querySelector<HTMLElement>(`[data-change-index="${next}"]`);
      element?.focus({ preventScroll: true });
      element?.scrollIntoView({ block: 'nearest' });
    },
    [stops, current],
  );

  const onKey = useCallback(
    (event: KeyboardEvent | React.KeyboardEvent, inside: boolean) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isOwnKeys(event.target)) return;
      const step = keyStep(event.key);
      // Arrows move between changes only from inside the comparison: elsewhere they scroll the page.
      if (step === null || (event.key.startsWith('Arrow') && !inside)) return;
      event.preventDefault();
      go(step);
    },
    [go],
  );

  useEffect(() => {
    if (!keysOnPage) return;
    const onPageKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || list.current?.contains(event.target as Node) || inDialog(event.target)) return;
      onKey(event, false);
    };
    document.addEventListener('keydown', onPageKey);
    return () => document.removeEventListener('keydown', onPageKey);
  }, [keysOnPage, onKey]);

  const at = current === null ? 0 : stops.indexOf(current) + 1;
  return (
    <section className="diff" aria-label={t('diff.region')} data-testid={testId} data-view={view}>
      <div className="diff-toolbar">
        <SummaryBar summary={summary} />
        <div className="diff-controls">
          <SegmentedFilter
            options={[
              { value: 'side', label: t('diff.side') },
              { value: 'inline', label: t('diff.inline') },
            ]}
            value={view}
            onChange={onView}
            label={t('diff.view')}
            testId="diff-view"
          />
          <label className="diff-only">
            <input
              type="checkbox"
              checked={onlyChanges}
              onChange={(event) => onOnlyChanges(event.target.checked)}
              data-testid="diff-only-changes"
            />
            {t('diff.onlyChanges')}
          </label>
          <div className="diff-stepper" role="group" aria-label={t('diff.keys')}>
            <Button variant="ghost" size="sm" onClick={() => go(-1)} disabled={stops.length === 0} data-testid="diff-previous">
              ↑ {t('diff.previous')}
            </Button>
            <span className="diff-position" aria-live="polite" data-testid="diff-position">
              {at ? t('diff.position', { at, count: stops.length }) : t('diff.positionNone', { count: stops.length })}
            </span>
            <Button variant="ghost" size="sm" onClick={() => go(1)} disabled={stops.length === 0} data-testid="diff-next">
              ↓ {t('diff.next')}
            </Button>
          </div>
        </div>
        <p className="diff-keys">{t('diff.keys')}</p>
      </div>
      {stops.length === 0 ? (
        <p className="diff-none" data-testid="diff-none">
          {t('diff.none')}
        </p>
      ) : null}
      {view === 'side' && changes.length ? (
        <div className="diff-columns" aria-hidden="true">
          <span>{t('diff.before')}</span>
          <span>{t('diff.after')}</span>
        </div>
      ) : null}
      {/* Keys pressed on a focused change move to the next or previous one. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the changes in it are focusable stops */}
      <ol className={`diff-list diff-list-${view}`} ref={list} onKeyDown={(event) => onKey(event, true)}>
        {rows.map((row) =>
          row.kind === 'change' ? (
            <BlockChangeView
              key={row.key}
              change={row.change}
              view={view}
              index={row.index}
              current={row.index === current}
              writers={writersOf?.(row.change)}
            />
          ) : (
            <li key={`folded:${row.key}`} className="diff-folded">
              <button
                type="button"
                className="diff-folded-button"
                onClick={() => setUnfolded(new Set([...unfolded, row.key]))}
                data-testid="diff-folded"
              >
                {t('diff.collapsed', { count: row.count })}
              </button>
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
