import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ERR } from '@eln/shared';
import { isApiError } from '../../api';
import { useBlocker, useLocation, useNavigate, useParams } from 'react-router-dom';
import { alert, alertApiError } from '../../modals/store';
import { Dialog } from '../../modals/Dialog';
import { getSession, useSession } from '../../session/store';
import { Button, ButtonLink } from '../../ui/Button';
import { FolderIcon } from '../../ui/icons';
import { EmptyState } from '../../ui/PageFrame';
import { usePageTitle } from '../../ui/usePageTitle';
import { NoteIcon, SaveIcon } from '../editor/icons';
import type { NoteSession } from './noteSession';
import { NoteView } from './NoteView';
import {
  anyUnstored,
  cancelReleaseAll,
  closeSession,
  existingSession,
  openSessions,
  scheduleReleaseAll,
  sessionFor,
  sessionsReopened,
  subscribeReopened,
} from './sessions';
import { activeTab, parseNoteNo, type NoteTab } from './tabs';
import { dispatchTabs, useTabs } from './tabStore';
import '../editor/editor.css';

type LeaveAnswer = 'save' | 'discard' | 'stay';

interface LeaveQuestion {
  title: string;
  resolve(answer: LeaveAnswer): void;
}

/** Paths of this screen: /note/:id and /editor/:id. */
const isWorkspacePath = (pathname: string) => /^\/(note|editor)\/[^/]+\/?$/.test(pathname);

/**
 * `/note/:id` and `/editor/:id`: the open notes as tabs, the active one live below. Opening a note adds
 * or activates its tab; closing a tab releases its note and activates the last tab; with none left the
 * area is empty. Leaving with changes that are not saved as a version asks whether to save: yes makes a
 * version, no clears the hold.
 */
export default function NoteWorkspace() {
  const { t } = useTranslation('editor');
  const { id } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const account = useSession();
  const tabs = useTabs();
  const base = location.pathname.startsWith('/editor') ? '/editor' : '/note';
  const routeNo = parseNoteNo(id);
  const routeState = location.state as { closedNote?: number; newNote?: number } | null;
  const closedHere = routeState?.closedNote === routeNo;
  // `?block=<uid>`: the block a search hit is in, shown and highlighted once the note is open.
  const blockUid = new URLSearchParams(location.search).get('block');
  const focus = useMemo(() => (blockUid ? { uid: blockUid, key: location.key } : null), [blockUid, location.key]);
  // `?comment=<id>`: a comment a mention's notification names, opened in the comment panel.
  const commentParam = Number(new URLSearchParams(location.search).get('comment'));
  const focusComment = Number.isSafeInteger(commentParam) && commentParam > 0 ? commentParam : null;
  const [question, setQuestion] = useState<LeaveQuestion | null>(null);
  const busy = useRef(false);
  // A note reopened after a refused edit has a new session: render it.
  useSyncExternalStore(subscribeReopened, sessionsReopened);

  // The route opens (or activates) its note's tab.
  useEffect(() => {
    if (routeNo !== null && !closedHere) dispatchTabs({ type: 'open', no: routeNo });
  }, [routeNo, closedHere]);

  // Notes are released when the screen goes away (not on React's development remount).
  useEffect(() => {
    cancelReleaseAll();
    return () => scheduleReleaseAll();
  }, []);

  // Closing the browser tab with edits not yet stored asks the browser to warn.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (anyUnstored()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  const active: NoteTab | null = closedHere ? null : (tabs.find((tab) => tab.no === routeNo) ?? null);
  const user = account ? { userId: account.user.userId, name: account.user.name } : null;
  const session = active && user ? sessionFor(active.no, user) : null;
  const [missing, setMissing] = useState<{ no: number; deleted: boolean } | null>(null);

  // A note that does not exist (or was deleted) keeps no tab: the page says which, and that is all.
  useEffect(() => {
    if (!session) return;
    const check = () => {
      const { phase, error } = session.getState();
      if (phase !== 'missing') return;
      setMissing({ no: session.noteNo, deleted: isApiError(error) && error.status === ERR.noteDeleted });
      dispatchTabs({ type: 'close', no: session.noteNo });
      void closeSession(session.noteNo);
    };
    check();
    return session.subscribe(check);
  }, [session]);
  usePageTitle(active?.title || (active ? t('notes.untitled', { no: active.no }) : t('notes.emptyTitle')));

  // The active tab stays in sight when the strip scrolls (many tabs, or a phone).
  const tabList = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const selected = tabList.current?.querySelector<HTMLElement>('.note-tab.is-active');
    selected?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active?.no]);

  const ask = useCallback((title: string) => new Promise<LeaveAnswer>((resolve) => setQuestion({ title, resolve })), []);

  /** Makes a version and says how it went; true when a version was made. */
  const saveVersion = useCallback(
    async (target: NoteSession): Promise<boolean> => {
      try {
        const outcome = await target.save();
        if (outcome === 'stale') await alert(t('notes.stale'), { tone: 'error' });
        if (outcome === 'notStored') await alert(t('notes.notStored'), { tone: 'error' });
        return outcome === 'saved';
      } catch (error) {
        await alertApiError(error);
        return false;
      }
    },
    [t],
  );

  /** Asks about each note with unsaved changes; false when the user chose to stay or a save failed. */
  const settleUnsaved = useCallback(
    async (targets: NoteSession[]): Promise<boolean> => {
      for (const target of targets) {
        const { hasChange, writable, note } = target.getState();
        if (!hasChange || !writable) continue;
        const answer = await ask(note?.title ?? t('notes.untitled', { no: target.noteNo }));
        if (answer === 'stay') return false;
        if (answer === 'save') {
          if (!(await saveVersion(target))) return false;
        } else {
          await target.clearHold();
        }
      }
      return true;
    },
    [ask, saveVersion, t],
  );

  // Leaving the screen for another page: ask about every open note that has unsaved changes.
  const blocker = useBlocker(({ nextLocation }) => {
    if (isWorkspacePath(nextLocation.pathname) || !getSession()) return false;
    return openSessions().some((s) => s.getState().hasChange && s.getState().writable);
  });
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (busy.current) {
      // Already asking (a tab is closing): stay; the user can leave again afterwards.
      blocker.reset();
      return;
    }
    busy.current = true;
    void settleUnsaved(openSessions()).then((go) => {
      busy.current = false;
      if (go) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, settleUnsaved]);

  const closeTab = async (no: number) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const target = existingSession(no);
      if (target) {
        const { hasChange, writable, note } = target.getState();
        if (hasChange && writable) {
          const answer = await ask(note?.title ?? t('notes.untitled', { no }));
          if (answer === 'stay') return;
          if (answer === 'save' && !(await saveVersion(target))) return;
        }
      }
      const next = dispatchTabs({ type: 'close', no });
      void closeSession(no);
      if (no !== routeNo) return;
      const nextActive = activeTab(next);
      if (nextActive) void navigate(`${base}/${nextActive.no}`);
      else void navigate(location.pathname, { replace: true, state: { closedNote: no } });
    } finally {
      busy.current = false;
    }
  };

  const answer = (value: LeaveAnswer) => {
    question?.resolve(value);
    setQuestion(null);
  };

  return (
    <section className="page note-workspace" data-testid="note-workspace">
      {tabs.length > 0 ? (
        <nav className="note-tabs" aria-label={t('notes.tabs')}>
          {/* Buttons that open notes, not a tablist: each note is a page of its own, with its own close button. */}
          <ul className="note-tab-list" ref={tabList}>
            {tabs.map((tab) => {
              const selected = active?.no === tab.no;
              const title = tab.title || t('notes.untitled', { no: tab.no });
              return (
                <li key={tab.no} className={`note-tab${selected ? ' is-active' : ''}`}>
                  <button
                    type="button"
                    aria-current={selected ? 'page' : undefined}
                    className="note-tab-main"
                    onClick={() => void navigate(`${base}/${tab.no}`)}
                    data-testid={`note-tab-${tab.no}`}
                    data-changed={tab.hasChange ? 'yes' : 'no'}
                    title={title}
                  >
                    <NoteIcon size={15} className="note-tab-icon" />
                    <span className="note-tab-title">{title}</span>
                    {tab.hasChange ? (
                      <span
                        className="note-tab-dot"
                        title={t('notes.unsavedDot')}
                        aria-label={t('notes.unsavedDot')}
                        data-testid={`note-tab-dot-${tab.no}`}
                      />
                    ) : null}
                  </button>
                  <button
                    type="button"
                    className="note-tab-close"
                    onClick={() => void closeTab(tab.no)}
                    aria-label={t('notes.closeTab', { title })}
                    title={t('notes.closeTab', { title })}
                    data-testid={`note-tab-close-${tab.no}`}
                  >
                    ×
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : null}

      {missing && missing.no === routeNo && !session ? (
        <div className="card note-card" data-testid="note-missing">
          <EmptyState icon={<NoteIcon size={26} />} title={missing.deleted ? t('notes.deletedTitle') : t('notes.notFoundTitle')}>
            <p>{missing.deleted ? t('notes.deletedBody') : t('notes.notFoundBody')}</p>
            <ButtonLink to="/project" variant="secondary" className="empty-state-action" icon={<FolderIcon size={16} />}>
              {t('notes.toProjects')}
            </ButtonLink>
          </EmptyState>
        </div>
      ) : session ? (
        <NoteView
          key={session.doc.guid}
          session={session}
          focus={focus}
          focusComment={focusComment}
          onSave={async (target) => void (await saveVersion(target))}
          focusEditor={routeState?.newNote === session.noteNo}
        />
      ) : (
        <div className="card note-card" data-testid="note-empty">
          <EmptyState icon={<NoteIcon size={26} />} title={t('notes.emptyTitle')}>
            <p>{t('notes.emptyBody')}</p>
            <ButtonLink to="/project" variant="secondary" className="empty-state-action" icon={<FolderIcon size={16} />}>
              {t('notes.toProjects')}
            </ButtonLink>
          </EmptyState>
        </div>
      )}

      {question ? (
        <Dialog
          title={t('notes.leaveTitle')}
          icon={<SaveIcon size={20} />}
          onClose={() => answer('stay')}
          role="alertdialog"
          testId="leave-dialog"
          footer={
            <>
              <Button variant="secondary" onClick={() => answer('discard')} data-testid="leave-discard">
                {t('notes.leaveNo')}
              </Button>
              <Button variant="primary" onClick={() => answer('save')} data-testid="leave-save">
                {t('notes.leaveYes')}
              </Button>
            </>
          }
        >
          <p className="modal-message">{t('notes.leaveBody', { title: question.title })}</p>
        </Dialog>
      ) : null}
    </section>
  );
}
