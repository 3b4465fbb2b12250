import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BlockChange, SavedBlock } from '@eln/shared';
import { Badge } from '../../ui/Badge';
import { StaticDocument } from '../editor/StaticDocument';
import { FieldsDiff } from './FieldsDiff';
import { TableDiff } from './TableDiff';
import { TextDiff } from './TextDiff';
import type { DiffView } from './diffRows';

export const CHANGE_TONE = { added: 'success', removed: 'danger', changed: 'warning', moved: 'info', unchanged: 'neutral' } as const;

/** A block as the editor shows it (headings, lists, tables with their merged cells, charts, images), read-only. */
function Shown({ block, label }: { block: SavedBlock; label: string }) {
  return <StaticDocument blocks={[block]} label={label} />;
}

/** One side of a side-by-side row: the block, or a blank saying this version does not have it. */
function Side({ side, children }: { side: 'before' | 'after'; children: ReactNode }) {
  const { t } = useTranslation('history');
  return (
    <div className={`diff-side diff-side-${side}`} data-side={side}>
      {children ?? <p className="diff-absent">{t('diff.absent')}</p>}
    </div>
  );
}

/** A text block's words: the removed ones on the older side, the added on the newer, both inline. */
function TextChange({ change, view }: { change: BlockChange; view: DiffView }) {
  const { t } = useTranslation('history');
  const detail = change.detail;
  if (detail?.kind !== 'text') return null;
  if (detail.formatting) return <BothSides change={change} view={view} note={<p className="diff-facts">{t('diff.formatting')}</p>} />;
  const prose = (side: 'before' | 'after' | 'both') => (
    <div className={`diff-text diff-class-${change.after?.blockClass ?? 'paragraph'}`} data-testid="diff-text">
      <TextDiff parts={detail.parts} side={side} />
    </div>
  );
  return (
    <>
      {detail.blockClass ? (
        <p className="diff-facts">{t('diff.blockClass', { before: detail.blockClass.before, after: detail.blockClass.after })}</p>
      ) : null}
      {view === 'inline' ? (
        prose('both')
      ) : (
        <div className="diff-sides">
          <Side side="before">{prose('before')}</Side>
          <Side side="after">{prose('after')}</Side>
        </div>
      )}
    </>
  );
}

/** Both versions of a block as the editor shows them (side by side), or the newer one (inline), with a note above. */
function BothSides({ change, view, note }: { change: BlockChange; view: DiffView; note?: ReactNode }) {
  const { t } = useTranslation('history');
  const before = change.before ? <Shown block={change.before} label={t('diff.before')} /> : null;
  const after = change.after ? <Shown block={change.after} label={t('diff.after')} /> : null;
  return (
    <>
      {note}
      {view === 'inline' ? (
        after
      ) : (
        <div className="diff-sides">
          <Side side="before">{before}</Side>
          <Side side="after">{after}</Side>
        </div>
      )}
    </>
  );
}

/** What a block looks like in the comparison, by its kind of change and what changed inside it. */
function ChangeBody({ change, view }: { change: BlockChange; view: DiffView }) {
  const { t } = useTranslation('history');
  const { kind, detail, before, after } = change;
  if (kind === 'added' || kind === 'removed') {
    const block = (before ?? after)!;
    const shown = <Shown block={block} label={t(`diff.kind.${kind}`)} />;
    if (view === 'inline') return shown;
    return (
      <div className="diff-sides">
        <Side side="before">{kind === 'removed' ? shown : null}</Side>
        <Side side="after">{kind === 'added' ? shown : null}</Side>
      </div>
    );
  }
  if (kind !== 'changed' || !detail) return <BothSides change={change} view={view} />;
  if (detail.kind === 'text') return <TextChange change={change} view={view} />;
  if (detail.kind === 'table' && before?.blockTable && after?.blockTable)
    return <TableDiff detail={detail} before={before.blockTable} after={after.blockTable} view={view} />;
  if (detail.kind === 'fields' || detail.kind === 'schema') {
    const note = detail.kind === 'fields' && detail.formatting ? <p className="diff-facts">{t('diff.formatting')}</p> : null;
    return <BothSides change={change} view={view} note={note ?? <FieldsDiff detail={detail} view={view} />} />;
  }
  if (detail.kind === 'replaced' && view === 'inline')
    return (
      <div className="diff-replaced">
        <p className="diff-facts">{t('diff.replaced')}</p>
        <div className="diff-side diff-side-before">{before ? <Shown block={before} label={t('diff.before')} /> : null}</div>
        <div className="diff-side diff-side-after">{after ? <Shown block={after} label={t('diff.after')} /> : null}</div>
      </div>
    );
  return (
    <BothSides change={change} view={view} note={detail.kind === 'replaced' ? <p className="diff-facts">{t('diff.replaced')}</p> : null} />
  );
}

/** A person whose edits wrote a block, with the colour their margin has throughout the comparison. */
export interface BlockAuthor {
  userId: string;
  name: string;
  color: string;
}

/** The block's authors as coloured margin bars and names ("who wrote what"). */
function AuthorsMargin({ authors }: { authors: readonly BlockAuthor[] }) {
  const { t } = useTranslation('history');
  return (
    <div className="diff-authors" data-testid="diff-authors">
      <span className="diff-authors-bars" aria-hidden="true">
        {authors.map((author) => (
          <span key={author.userId} className="diff-authors-bar" style={{ background: author.color }} />
        ))}
      </span>
      {authors.length ? (
        authors.map((author) => (
          <span key={author.userId} className="diff-author" data-testid="diff-author">
            <span className="diff-author-dot" style={{ background: author.color }} aria-hidden="true" />
            {author.name}
          </span>
        ))
      ) : (
        <span className="diff-author diff-author-none">{t('diff.authorsNone')}</span>
      )}
    </div>
  );
}

/**
 * One block of a comparison: its kind of change as a badge (words, not colour alone), who changed or
 * wrote it when known, its authors' margin when asked for, and its content with what changed marked.
 * Focusable, so that the keyboard can step from change to change.
 */
export function BlockChangeView({
  change,
  view,
  index,
  current = false,
  people,
  authors,
}: {
  change: BlockChange;
  view: DiffView;
  index: number;
  current?: boolean;
  /** Who changed the block between the two sides, or wrote it (a template's revision), as a line. */
  people?: string | undefined;
  /** The block's authors, when the reader asked to see who wrote what. */
  authors?: readonly BlockAuthor[] | undefined;
}) {
  const { t } = useTranslation('history');
  const stop = change.kind !== 'unchanged';
  return (
    <li
      className={`diff-change diff-change-${change.kind}${change.moved ? ' is-moved' : ''}${current ? ' is-current' : ''}${authors ? ' has-authors' : ''}`}
      data-testid="diff-change"
      data-kind={change.kind}
      data-moved={change.moved ? 'yes' : 'no'}
      data-block={change.blockUid}
      data-change-index={index}
      tabIndex={stop ? -1 : undefined}
      aria-current={current ? 'true' : undefined}
    >
      {stop ? (
        <div className="diff-change-head">
          <Badge tone={CHANGE_TONE[change.kind]}>{t(`diff.kind.${change.kind}`)}</Badge>
          {change.kind === 'changed' && change.moved ? <Badge tone={CHANGE_TONE.moved}>{t('diff.kind.moved')}</Badge> : null}
          {people ? (
            <span className="diff-change-writers" data-testid="diff-change-writers">
              {people}
            </span>
          ) : null}
        </div>
      ) : null}
      {authors ? <AuthorsMargin authors={authors} /> : null}
      <ChangeBody change={change} view={view} />
    </li>
  );
}
