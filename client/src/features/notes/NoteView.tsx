import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { COLLAB_LIMITS, DOCUMENT_TOO_LARGE, type NoteSummary } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { alert } from '../../modals/store';
import { InlineAlert } from '../../ui/InlineAlert';
import { AlertIcon, LockIcon, SearchIcon } from '../../ui/icons';
import { ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { apiErrorText, isApiError } from '../../api';
import { HistoryIcon, NoteIcon, SaveIcon } from '../editor/icons';
import { LiveEditor } from '../editor/LiveEditor';
import { REFUSAL_PARAMS } from '../editor/tableGuard';
import { SignaturePanel } from '../signatures/SignaturePanel';
import { NotePdfButton } from '../exports/NotePdfButton';
import { CommentPanel } from '../comments/CommentPanel';
import { CommentsButton } from '../comments/CommentsButton';
import { useCommentLayer } from '../comments/useCommentLayer';
import type { NoteSession, NoteSessionState } from './noteSession';
import { noteAuthors } from './importedAuthors';
import type { ReadOnlyReason } from './sessionState';
import { NoteStatusBadge, initialsOf } from './NoteStatusBadge';
import type { PresenceUser } from './presence';
import { reopenSession } from './sessions';
import { useSettledValue } from '../../lib/useSettledValue';
import { viewerTimeZone } from '../../lib/timeZone';

export function useSessionState(session: NoteSession): NoteSessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}

function ConnectionPill({ state }: { state: NoteSessionState }) {
  const { t } = useTranslation('editor');
  const { connection, durable } = state;
  const unsynced = connection !== 'connected' && !durable;
  return (
    <span
      className={`conn-pill conn-${connection}`}
      data-testid="connection-state"
      data-state={connection}
      role="status"
      aria-live="polite"
    >
      <span className="conn-dot" aria-hidden="true" />
      {t(`notes.connection.${connection}`)}
      {unsynced ? <span className="conn-unsynced"> · {t('notes.connection.unsynced')}</span> : null}
    </span>
  );
}

/** A read-only note has nothing to save: it says that it is read-only and why, not "Connected · Saved". */
function ReadOnlyPill({ reason }: { reason: ReadOnlyReason }) {
  const { t } = useTranslation('editor');
  return (
    <span className="conn-pill conn-readonly" data-testid="note-mode" data-reason={reason}>
      <LockIcon size={13} />
      {t(`notes.readOnlyMode.${reason}`)}
    </span>
  );
}

/** How long the save state must hold before it is announced (a typist hears "Saved" once, not per keystroke). */
const ANNOUNCE_SETTLED_MS = 1500;

function SaveState({ state }: { state: NoteSessionState }) {
  const { t } = useTranslation('editor');
  const saved = state.durable;
  const draftFailed = state.draft === 'failed';
  // The failure is announced at once; "Saved" only once it has held (typing flips the state with every
  // keystroke, and the region then stays as it was); "Saving…" is only shown.
  const settledSaved = useSettledValue(saved, ANNOUNCE_SETTLED_MS);
  const announcement = draftFailed ? t('notes.saveState.draftFailed') : settledSaved ? t('notes.saveState.saved') : '';
  return (
    <span className="save-state-group">
      <span className={`save-state ${saved ? 'is-saved' : 'is-saving'}`} data-testid="save-state" data-saved={saved ? 'yes' : 'no'}>
        {saved ? t('notes.saveState.saved') : t('notes.saveState.saving')}
      </span>
      {draftFailed ? (
        <span className="draft-failed" title={t('notes.saveState.draftFailedTitle')} data-testid="draft-failed">
          <AlertIcon size={13} /> {t('notes.saveState.draftFailed')}
        </span>
      ) : null}
      <span className="visually-hidden" role="status" data-testid="save-announcement">
        {announcement}
      </span>
    </span>
  );
}

function Modifiers({ writers }: { writers: PresenceUser[] }) {
  const { t } = useTranslation('editor');
  return (
    <div className="note-modifiers" data-testid="modifiers" data-count={writers.length}>
      <span className="note-modifiers-label">{t('notes.modifiers')}</span>
      {writers.length === 0 ? (
        <span className="note-modifiers-none">{t('notes.modifiersNone')}</span>
      ) : (
        <ul className="note-modifiers-list">
          {writers.map((writer) => (
            <li key={writer.userId} className="note-modifier" data-testid={`modifier-${writer.userId}`}>
              <span className="avatar avatar-presence" style={{ background: writer.color, color: '#fff' }} aria-hidden="true">
                {initialsOf(writer.name)}
              </span>
              <span className="note-modifier-name">{writer.name}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The note's writer: an imported note's authors by name, marked as imported, and who imported it. */
function NoteWriter({ note }: { note: NoteSummary }) {
  const { t } = useTranslation('editor');
  const authors = noteAuthors(note, t('notes.unknownAuthor'));
  return authors.imported ? (
    <>
      <span className="note-meta-item" data-testid="note-writer">
        {t('notes.writer')} · {t('notes.importedAuthors', { names: authors.names })}
      </span>
      <span className="note-meta-item" data-testid="note-importer">
        {t('notes.importedBy', { name: authors.by })}
      </span>
    </>
  ) : (
    <span className="note-meta-item" data-testid="note-writer">
      {t('notes.writer')} · {authors.names}
    </span>
  );
}

/** One open note: header (title, version, connection, saving, presence, save) and the live editor. */
export function NoteView({
  session,
  onSave,
  focusEditor = false,
  focus = null,
  focusComment = null,
}: {
  session: NoteSession;
  onSave(session: NoteSession): Promise<void>;
  /** The note was just created: its text takes focus as soon as it can be written. */
  focusEditor?: boolean;
  /** A block to scroll to and highlight (`?block=<uid>`, from a search hit). */
  focus?: { uid: string; key: string } | null;
  /** A comment to open in the comment panel (`?comment=<id>`, from a mention's notification). */
  focusComment?: number | null;
}) {
  const { t } = useTranslation('editor');
  const { t: ts } = useTranslation('signature');
  const { t: tt } = useTranslation('template');
  const { t: th } = useTranslation('history');
  const language = currentLanguage();
  const state = useSessionState(session);
  const uploadOwner = useMemo(() => ({ labNoteNo: session.noteNo }), [session.noteNo]);
  const [justSaved, setJustSaved] = useState<number | null>(null);
  /** This user is signing the note: the lock their own signature causes needs no announcement. */
  const signingHere = useRef(false);
  const { note } = state;
  const commentPlace = useMemo(() => ({ labNoteNo: session.noteNo }), [session.noteNo]);
  const comments = useCommentLayer(commentPlace, session.provider, focusComment);
  const commentExtensions = useMemo(() => [comments.extension], [comments.extension]);

  useEffect(() => {
    session.onHoldEnded = (reason) => {
      if (reason === 'signed' && signingHere.current) return;
      const title = session.getState().note?.title ?? '';
      const message =
        reason === 'signed'
          ? ts('area.lockedSigned', { title })
          : reason === 'finished'
            ? ts('area.lockedFinished', { title })
            : reason === DOCUMENT_TOO_LARGE
              ? t('notes.tooLargeAlert', { title, megabytes: COLLAB_LIMITS.documentBytes / (1024 * 1024) })
              : t('notes.holdEndedAlert', { title });
      void alert(message, { tone: 'info' });
    };
    // The server refused an edit (a content rule): say which, and reopen the note as stored.
    session.onContentRefused = (refusal) => {
      const reason = refusal ? t(`refusal.${refusal.rule}`, REFUSAL_PARAMS) : '';
      void alert(t('notes.contentRefusedAlert', { title: session.getState().note?.title ?? '', reason }), { tone: 'error' });
      reopenSession(session.noteNo);
    };
    return () => {
      session.onHoldEnded = null;
      session.onContentRefused = null;
    };
  }, [session, t, ts]);

  useEffect(() => {
    if (justSaved === null) return;
    const timer = setTimeout(() => setJustSaved(null), 4000);
    return () => clearTimeout(timer);
  }, [justSaved]);

  if (state.phase === 'missing') {
    return (
      <div className="card note-card" data-testid="note-missing">
        <EmptyState icon={<SearchIcon size={26} />} title={t('notes.missingTitle')}>
          <p>{t('notes.missingBody')}</p>
        </EmptyState>
      </div>
    );
  }
  if (state.phase === 'error' && !note) {
    return (
      <div className="card note-card">
        <ErrorState
          message={isApiError(state.error) ? apiErrorText(state.error, language) : t('notes.loadFailed')}
          onRetry={() => void session.load()}
          testId="note-load-error"
        />
      </div>
    );
  }

  const readOnly = state.readOnly !== null;
  const locked = state.readOnly === 'signed' || state.readOnly === 'finished';
  const save = async () => {
    const before = state.version;
    await onSave(session);
    const after = session.getState().version;
    if (after > before) setJustSaved(after);
  };

  return (
    <article className="card note-card" data-testid="note-view" data-note={session.noteNo} aria-busy={state.phase === 'loading'}>
      <header className="note-header">
        <div className="note-title-row">
          <span className="note-title-icon" aria-hidden="true">
            <NoteIcon size={20} />
          </span>
          <div className="note-title-text">
            <h1 className="note-title" data-testid="note-title" tabIndex={-1}>
              {note?.title ?? t('notes.loading')}
            </h1>
            <p className="note-meta">
              {note ? (
                <>
                  <span className="note-meta-item" title={t('notes.labNoteNumber')} data-testid="note-number">
                    {note.labNoteNumber}
                  </span>
                  <NoteWriter note={note} />
                  <NoteStatusBadge status={note.status} testId="note-status" />
                  <span
                    className="note-version"
                    data-testid="note-version"
                    data-version={state.version}
                    title={
                      state.savedAt && state.savedBy
                        ? t('notes.savedBy', {
                            version: state.version,
                            name: state.savedBy,
                            when: new Date(state.savedAt).toLocaleString(language, { timeZone: viewerTimeZone() }),
                          })
                        : t('notes.versionTitle')
                    }
                  >
                    {state.version > 0 ? t('notes.version', { version: state.version }) : t('notes.versionNone')}
                  </span>
                  {note.template ? (
                    <Link
                      to={`/template/note/${note.template.templateNo}`}
                      className="note-meta-item note-template-origin"
                      data-testid="note-template-origin"
                      title={note.template.blocksHash}
                    >
                      {tt('origin.from', { title: note.template.title, version: note.template.version })}
                    </Link>
                  ) : null}
                </>
              ) : (
                <span className="skeleton skeleton-text note-meta-skeleton" />
              )}
            </p>
          </div>
          <div className="note-actions">
            {/* A locked note (signed, project closed) changes no more: being connected says nothing then. */}
            {locked && state.connection === 'connected' ? null : <ConnectionPill state={state} />}
            {state.readOnly ? <ReadOnlyPill reason={state.readOnly} /> : <SaveState state={state} />}
            {note ? (
              <ButtonLink
                to={`/note/${session.noteNo}/history`}
                variant="secondary"
                size="md"
                icon={<HistoryIcon size={16} />}
                title={th('page.actionTitle')}
                data-testid="note-history"
              >
                {th('page.action')}
              </ButtonLink>
            ) : null}
            {note ? <CommentsButton layer={comments} /> : null}
            {note?.abilities.exportPdf && state.version > 0 ? <NotePdfButton noteNo={session.noteNo} version={state.version} /> : null}
            {!readOnly ? (
              <button
                type="button"
                className="btn btn-primary btn-md"
                onClick={() => void save()}
                disabled={state.saving || !state.hasChange || state.phase !== 'ready'}
                aria-busy={state.saving || undefined}
                title={t('notes.saveTitle')}
                data-testid="save-version"
              >
                {state.saving ? <span className="spinner" aria-hidden="true" /> : <SaveIcon size={16} />}
                {t('notes.save')}
              </button>
            ) : null}
          </div>
        </div>
        <div className="note-subheader">
          <Modifiers writers={state.writers} />
          {state.statuses.size > 0 ? (
            <div className="block-legend" aria-hidden="true">
              <span className="block-legend-item block-legend-add">{t('notes.legendAdd')}</span>
              <span className="block-legend-item block-legend-edit">{t('notes.legendEdit')}</span>
            </div>
          ) : null}
        </div>
      </header>

      {note ? (
        <SignaturePanel
          session={session}
          expectLock={(on) => {
            signingHere.current = on;
          }}
        />
      ) : null}

      {justSaved !== null ? (
        <InlineAlert tone="success" testId="note-saved-notice">
          {t('notes.saved', { version: justSaved })}
        </InlineAlert>
      ) : null}
      {state.readOnly ? (
        <div className="readonly-banner" role="status" data-testid="readonly-banner" data-reason={state.readOnly}>
          <LockIcon size={16} />
          <span>
            <strong>{t('notes.readOnly.title')}</strong> · {t(`notes.readOnly.${state.readOnly}`)}
          </span>
        </div>
      ) : null}

      <div className={`comments-layout${comments.open ? ' is-open' : ''}`}>
        {state.synced && state.phase === 'ready' ? (
          <LiveEditor
            doc={session.doc}
            provider={session.provider}
            user={{ userId: session.user.userId, name: session.user.name, color: session.color }}
            editable={state.writable}
            uploadOwner={uploadOwner}
            statuses={state.statuses}
            focusOnEditable={focusEditor}
            focus={focus}
            extensions={commentExtensions}
            onEditor={comments.setEditor}
            mentions={uploadOwner}
          />
        ) : (
          <div className="note-loading" data-testid="note-loading">
            <SkeletonBlock lines={6} />
          </div>
        )}
        {comments.open ? <CommentPanel layer={comments} /> : null}
      </div>
    </article>
  );
}
