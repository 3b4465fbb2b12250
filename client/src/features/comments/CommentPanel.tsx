import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, COMMENT_LIMITS, mentionedUserIds, type CommentEntry, type CommentPerson, type CommentThread } from '@eln/shared';
import { call } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { alertApiError, confirm } from '../../modals/store';
import { Button } from '../../ui/Button';
import { SegmentedFilter } from '../../ui/SegmentedFilter';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { CheckCircleIcon, CloseIcon } from '../../ui/icons';
import { MentionText, MentionTextarea, useMentionPeople } from './mentions';
import { COMMENT_SHORTCUT, type CommentLayer, type Show } from './useCommentLayer';
import { CommentIcon } from './CommentsButton';
import './comments.css';

/** Runs a comment call; a refusal is said in the reader's language. Answers whether it went through. */
async function run(action: () => Promise<unknown>, after: () => Promise<void>): Promise<boolean> {
  try {
    await action();
    await after();
    return true;
  } catch (error) {
    await alertApiError(error);
    return false;
  }
}

/** A text field with its submit and cancel, for a new thread, a reply or an edit. */
function Composer({
  people,
  label,
  placeholder,
  submitLabel,
  initial = '',
  onSubmit,
  onCancel,
  testId,
}: {
  people: readonly CommentPerson[];
  label: string;
  placeholder: string;
  submitLabel: string;
  initial?: string;
  onSubmit(body: string): Promise<boolean>;
  onCancel(): void;
  testId: string;
}) {
  const { t } = useTranslation('editor');
  const [body, setBody] = useState(initial);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!body.trim() || busy) return;
    setBusy(true);
    const done = await onSubmit(body.trim());
    setBusy(false);
    if (done) setBody('');
  };
  return (
    <form
      className="comment-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid={testId}
    >
      <MentionTextarea
        value={body}
        onChange={setBody}
        people={people}
        label={label}
        placeholder={placeholder}
        onSubmit={() => void submit()}
        onCancel={onCancel}
        maxLength={COMMENT_LIMITS.body}
        testId={`${testId}-body`}
        focusOnMount
      />
      <div className="comment-composer-actions">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          {t('comments.cancel')}
        </Button>
        <Button type="submit" variant="primary" size="sm" loading={busy} disabled={!body.trim()} data-testid={`${testId}-submit`}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** One comment: who, when, the text (mentions as names), and its author's edit and delete. */
function Comment({
  entry,
  names,
  people,
  reload,
}: {
  entry: CommentEntry;
  names: ReadonlyMap<string, string>;
  people: readonly CommentPerson[];
  reload(): Promise<void>;
}) {
  const { t } = useTranslation('editor');
  const language = currentLanguage();
  const [editing, setEditing] = useState(false);
  if (entry.deleted) {
    return (
      <div className="comment is-deleted" data-testid="comment" data-comment={entry.commentId}>
        <p className="comment-deleted">{t('comments.deleted')}</p>
      </div>
    );
  }
  return (
    <div className="comment" data-testid="comment" data-comment={entry.commentId}>
      <p className="comment-meta">
        <span className="comment-author">{entry.author.name}</span>
        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, language)}</time>
        {entry.editedAt ? <span className="comment-edited">({t('comments.edited')})</span> : null}
      </p>
      {editing ? (
        <Composer
          people={people}
          label={t('comments.editLabel')}
          placeholder={t('comments.bodyPlaceholder')}
          submitLabel={t('comments.save')}
          initial={entry.body}
          testId="comment-edit"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            const done = await run(() => call(api.comments.update, { commentId: entry.commentId, body }), reload);
            if (done) setEditing(false);
            return done;
          }}
        />
      ) : (
        <p className="comment-body" data-testid="comment-body">
          <MentionText text={entry.body} names={names} />
        </p>
      )}
      {!editing && (entry.abilities.edit || entry.abilities.delete) ? (
        <div className="comment-actions">
          {entry.abilities.edit ? (
            <button type="button" className="comment-link-button" onClick={() => setEditing(true)} data-testid="comment-edit-open">
              {t('comments.edit')}
            </button>
          ) : null}
          {entry.abilities.delete ? (
            <button
              type="button"
              className="comment-link-button"
              data-testid="comment-delete"
              onClick={() =>
                void confirm(t('comments.deleteConfirm'), { tone: 'error' }).then(
                  (yes) => yes && run(() => call(api.comments.delete, { commentId: entry.commentId }), reload),
                )
              }
            >
              {t('comments.delete')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** One thread: its anchor's text (or "on deleted text"), its first comment and replies, and what the reader may do. */
function Thread({
  thread,
  layer,
  names,
  people,
}: {
  thread: CommentThread;
  layer: CommentLayer;
  names: ReadonlyMap<string, string>;
  people: readonly CommentPerson[];
}) {
  const { t } = useTranslation('editor');
  const [replying, setReplying] = useState(false);
  const active = layer.active === thread.commentId;
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (active) card.current?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const quote = thread.anchor.quote;
  return (
    <article
      ref={card}
      className={['comment-thread', active ? 'is-active' : '', thread.resolved ? 'is-resolved' : ''].filter(Boolean).join(' ')}
      aria-label={t('comments.quoteLabel') + ': ' + (quote || t('comments.onBlock'))}
      data-testid="comment-thread"
      data-thread={thread.commentId}
      data-deleted-text={thread.onDeletedText ? 'yes' : 'no'}
    >
      <div className="comment-anchor-row">
        {thread.onDeletedText ? (
          <span className="comment-deleted-text" title={t('comments.onDeletedTextTitle')} data-testid="comment-deleted-text">
            {t('comments.onDeletedText')}
          </span>
        ) : null}
        <button
          type="button"
          className="comment-quote"
          onClick={() => layer.jumpTo(thread)}
          title={t('comments.jumpTitle')}
          aria-label={`${t('comments.jump')}: ${quote || t('comments.onBlock')}`}
          data-testid="comment-jump"
        >
          {quote ? <q>{quote}</q> : <em>{t('comments.onBlock')}</em>}
        </button>
      </div>
      <Comment entry={thread} names={names} people={people} reload={layer.reload} />
      {thread.replies.length ? (
        <ol className="comment-replies" aria-label={t('comments.replies', { count: thread.replies.length })}>
          {thread.replies.map((reply) => (
            <li key={reply.commentId}>
              <Comment entry={reply} names={names} people={people} reload={layer.reload} />
            </li>
          ))}
        </ol>
      ) : null}
      {thread.resolved ? (
        <p className="comment-resolved" data-testid="comment-resolved">
          <CheckCircleIcon size={14} /> {t('comments.resolvedBy', { name: thread.resolved.by.name })}
        </p>
      ) : null}
      {replying ? (
        <Composer
          people={people}
          label={t('comments.replyLabel')}
          placeholder={t('comments.replyPlaceholder')}
          submitLabel={t('comments.reply')}
          testId="comment-reply"
          onCancel={() => setReplying(false)}
          onSubmit={async (body) => {
            const done = await run(() => call(api.comments.create, { ...layer.place, replyTo: thread.commentId, body }), layer.reload);
            if (done) setReplying(false);
            return done;
          }}
        />
      ) : (
        <div className="comment-thread-actions">
          {thread.threadAbilities.reply ? (
            <Button size="sm" variant="secondary" onClick={() => setReplying(true)} data-testid="comment-reply-open">
              {t('comments.reply')}
            </Button>
          ) : null}
          {thread.threadAbilities.resolve ? (
            <Button
              size="sm"
              variant="secondary"
              icon={<CheckCircleIcon size={14} />}
              onClick={() => void run(() => call(api.comments.resolve, { commentId: thread.commentId }), layer.reload)}
              data-testid="comment-resolve"
            >
              {t('comments.resolve')}
            </Button>
          ) : null}
          {thread.threadAbilities.reopen ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void run(() => call(api.comments.reopen, { commentId: thread.commentId }), layer.reload)}
              data-testid="comment-reopen"
            >
              {t('comments.reopen')}
            </Button>
          ) : null}
        </div>
      )}
    </article>
  );
}

/** Whether a person takes part in a thread: they wrote in it or are mentioned in it. */
const involves = (thread: CommentThread, userId: string) =>
  [thread, ...thread.replies].some((entry) => entry.author.userId === userId || mentionedUserIds(entry.body).includes(userId));

/**
 * The comment side panel beside a note (or template draft): the open or the resolved threads, filtered by
 * person, each with its text to jump to; a new thread from the selection (the button or Mod-Alt-M);
 * replies, edits, deletion, resolving and reopening as the server's abilities allow. It follows every
 * change live (the layer loads the threads again when told).
 */
export function CommentPanel({ layer }: { layer: CommentLayer }) {
  const { t } = useTranslation('editor');
  const headingId = useId();
  const people = useMentionPeople(layer.place);
  const [person, setPerson] = useState('');
  const data = layer.threads.data;
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const p of [...people, ...(data?.people ?? [])]) map.set(p.userId, p.name);
    for (const thread of data?.threads ?? [])
      for (const entry of [thread, ...thread.replies]) map.set(entry.author.userId, entry.author.name);
    return map;
  }, [people, data]);
  const participants = useMemo(() => {
    const ids = new Set<string>();
    for (const thread of data?.threads ?? [])
      for (const entry of [thread, ...thread.replies]) {
        if (!entry.deleted) ids.add(entry.author.userId);
        for (const id of mentionedUserIds(entry.body)) ids.add(id);
      }
    return [...ids].map((userId) => ({ userId, name: names.get(userId) ?? userId })).sort((a, b) => a.name.localeCompare(b.name));
  }, [data, names]);
  const shown = (data?.threads ?? []).filter(
    (thread) => (layer.show === 'resolved') === (thread.resolved !== null) && (!person || involves(thread, person)),
  );
  const openCount = (data?.threads ?? []).filter((thread) => thread.resolved === null).length;
  const canComment = data?.abilities.comment ?? false;
  const emptyText = person
    ? t('comments.emptyPerson', { name: names.get(person) ?? person })
    : layer.show === 'open'
      ? t('comments.empty')
      : t('comments.emptyResolved');

  return (
    <aside className="comment-panel" aria-labelledby={headingId} data-testid="comment-panel">
      <header className="comment-panel-header">
        <h2 id={headingId} className="comment-panel-title">
          <CommentIcon size={18} /> {t('comments.title')}
          <span className="comment-panel-count" data-testid="comment-open-count">
            {t('comments.count', { count: openCount })}
          </span>
        </h2>
        <button
          type="button"
          className="comment-icon-button"
          onClick={() => layer.setOpen(false)}
          aria-label={t('comments.close')}
          data-testid="comment-panel-close"
        >
          <CloseIcon size={16} />
        </button>
      </header>
      <div className="comment-panel-tools">
        <Button
          size="sm"
          variant="primary"
          icon={<CommentIcon size={14} />}
          onClick={layer.commentOnSelection}
          disabled={!canComment}
          title={t('comments.addTitle', { keys: COMMENT_SHORTCUT.label })}
          aria-keyshortcuts="Control+Alt+M Meta+Alt+M"
          data-testid="comment-add"
        >
          {t('comments.add')}
        </Button>
        <SegmentedFilter<Show>
          options={[
            { value: 'open', label: t('comments.show.open') },
            { value: 'resolved', label: t('comments.show.resolved') },
          ]}
          value={layer.show}
          onChange={layer.setShow}
          label={t('comments.show.label')}
          testId="comment-show"
        />
        <label className="comment-person">
          <span className="visually-hidden">{t('comments.person')}</span>
          <select
            className="input comment-person-select"
            value={person}
            onChange={(event) => setPerson(event.target.value)}
            data-testid="comment-person"
          >
            <option value="">{t('comments.everyone')}</option>
            {participants.map((p) => (
              <option key={p.userId} value={p.userId}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!canComment && data ? <p className="comment-panel-note">{t('comments.notAllowed')}</p> : null}
      {canComment && !layer.pending ? (
        <p className="comment-panel-note">{t('comments.addHint', { keys: COMMENT_SHORTCUT.label })}</p>
      ) : null}
      {layer.pending ? (
        <section className="comment-thread is-new" aria-label={t('comments.newThread')} data-testid="comment-new-thread">
          <p className="comment-quote-static">{layer.pending.quote ? <q>{layer.pending.quote}</q> : <em>{t('comments.onBlock')}</em>}</p>
          <Composer
            people={people}
            label={t('comments.bodyLabel')}
            placeholder={t('comments.bodyPlaceholder')}
            submitLabel={t('comments.submit')}
            testId="comment-new"
            onCancel={layer.cancelPending}
            onSubmit={async (body) => {
              const anchor = layer.pending;
              if (!anchor) return false;
              let created = 0;
              const done = await run(async () => {
                created = (await call(api.comments.create, { ...layer.place, anchor, body })).commentId;
              }, layer.reload);
              if (done) {
                layer.cancelPending();
                layer.setActive(created);
              }
              return done;
            }}
          />
        </section>
      ) : null}
      <div className="comment-list" role="region" aria-live="polite" aria-label={t('comments.show.label')}>
        {layer.threads.phase === 'error' && !data ? (
          <ErrorState message={t('comments.loadFailed')} onRetry={layer.threads.reload} testId="comment-load-error" />
        ) : !data ? (
          <SkeletonBlock lines={3} />
        ) : shown.length === 0 ? (
          <p className="comment-empty" data-testid="comment-empty">
            {emptyText}
          </p>
        ) : (
          shown.map((thread) => <Thread key={thread.commentId} thread={thread} layer={layer} names={names} people={people} />)
        )}
      </div>
    </aside>
  );
}
