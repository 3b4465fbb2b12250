import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BlockChange, ChangeSummary } from '@eln/shared';
import { Button } from '../../ui/Button';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { BlockChangeView, CHANGE_TONE, type BlockAuthor } from './BlockChangeView';
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

/**
 * Colours people's margins keep throughout a comparison: told apart by hue and each at 3:1 or more against
 * the page in both themes (a margin is a graphic, WCAG 1.4.11); the names beside them say who is who.
 */
const AUTHOR_COLOURS = ['#2563eb', '#c2410c', '#15803d', '#9333ea', '#be123c', '#0e7490', '#a16207', '#4338ca'];

/** A person's colour: the same for the same person wherever they appear (a hash of their ID). */
function colourOf(userId: string): string {
  let hash = 0;
  for (const character of userId) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return AUTHOR_COLOURS[hash % AUTHOR_COLOURS.length]!;
}

function colouredAuthors(people: readonly { userId: string; name: string }[] | undefined): BlockAuthor[] | undefined {
  return people?.map((person) => ({ ...person, color: colourOf(person.userId) }));
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
  peopleOf,
  authors,
  keysOnPage = false,
  testId = 'diff',
}: {
  changes: readonly BlockChange[];
  summary: ChangeSummary;
  view: DiffView;
  onView(view: DiffView): void;
  onlyChanges: boolean;
  onOnlyChanges(only: boolean): void;
  /** The line naming who changed (or wrote) a block, when known. */
  peopleOf?: (change: BlockChange) => string | undefined;
  /** "Who wrote what": the toggle's state, and each block's authors when it is on (undefined: not known for that side). */
  authors?: {
    shown: boolean;
    onShown(shown: boolean): void;
    of(change: BlockChange): readonly { userId: string; name: string }[] | undefined;
    /** Why some blocks name no authors (the live draft's), said beside the toggle. */
    note?: string | undefined;
  };
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
          {authors ? (
            <label className="diff-only">
              <input
                type="checkbox"
                checked={authors.shown}
                onChange={(event) => authors.onShown(event.target.checked)}
                data-testid="diff-authors-toggle"
              />
              {t('diff.authors')}
            </label>
          ) : null}
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
        {authors?.shown && authors.note ? <p className="diff-keys">{authors.note}</p> : null}
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
              people={peopleOf?.(row.change)}
              authors={authors?.shown ? colouredAuthors(authors.of(row.change)) : undefined}
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
