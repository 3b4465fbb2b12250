import { useEffect, useEffectEvent, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { api, ERR, TEMPLATE_STATE, type TemplateDetail, type TemplateState, type TemplateViewerAnswer } from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { apiQueryKey, queryClient, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { alert, alertApiError, confirm } from '../../modals/store';
import { useSession } from '../../session/store';
import { Button } from '../../ui/Button';
import { ArrowLeftIcon, CheckCircleIcon, PencilIcon, TemplateIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { usePageTitle } from '../../ui/usePageTitle';
import { EmptyState } from '../../ui/PageFrame';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { LiveEditor } from '../editor/LiveEditor';
import { CommentedDocument } from '../comments/CommentedDocument';
import { StaticDocument } from '../editor/StaticDocument';
import { initialsOf } from '../notes/NoteStatusBadge';
import { ApproveDialog, SendBackDialog } from './ApproveDialog';
import { TemplateCreateDialog } from './TemplateCreateDialog';
import { TemplateHistory } from './TemplateHistory';
import { TemplateSession, type TemplateSessionState } from './templateSession';
import { TemplateStateBadge } from './TemplateStateBadge';
import { TemplateTabs } from './TemplateTabs';
import './templates.css';
import { useServerErrorOnFirstLoad } from '../../lib/useServerErrorPage';

type Shown =
  | { kind: 'loading' }
  | { kind: 'editor'; template: TemplateDetail }
  /** Without template permission: the approved version, read-only. */
  | { kind: 'viewer'; answer: TemplateViewerAnswer }
  | { kind: 'missing' }
  | { kind: 'error'; error: unknown };

const NO_STATUSES = new Map<string, 'ADD' | 'EDIT'>();

const refusedWith = (error: unknown, status: string) => isApiError(error) && error.status === status;

/**
 * What the page shows of a template: its editor for those who manage templates; for others (the editor
 * refuses them with 1003) the approved version, read-only. A template missing (9002) for either says so.
 */
function useShownTemplate(templateNo: number, valid: boolean): { shown: Shown; reload(): Promise<void> } {
  const editor = useApiQuery(api.templates.editor, { templateNo }, { enabled: valid, keepPrevious: false });
  const readerOnly = editor.phase === 'error' && refusedWith(editor.error, ERR.forbidden);
  const viewer = useApiQuery(api.templates.viewer, { templateNo }, { enabled: valid && readerOnly, keepPrevious: false });
  // Read again in place: what is on screen stays until the new answer is in (an open workspace keeps its session).
  const reload = async () => {
    const reads = [api.templates.editor, api.templates.viewer];
    await Promise.all(reads.map((spec) => queryClient.refetchQueries({ queryKey: apiQueryKey(spec, { templateNo }) })));
  };
  const missingOr = (error: unknown): Shown => (refusedWith(error, ERR.notFound) ? { kind: 'missing' } : { kind: 'error', error });
  if (!valid) return { shown: { kind: 'missing' }, reload };
  if (readerOnly) {
    if (viewer.phase === 'error') return { shown: missingOr(viewer.error), reload };
    return { shown: viewer.data ? { kind: 'viewer', answer: viewer.data } : { kind: 'loading' }, reload };
  }
  if (editor.phase === 'error') return { shown: missingOr(editor.error), reload };
  return { shown: editor.data ? { kind: 'editor', template: editor.data.template } : { kind: 'loading' }, reload };
}

/** `/template/note/{id}`: a template's live draft with its state, actions and versions; a read-only view without permission. */
export function TemplateEditorPage() {
  const { t } = useTranslation('template');
  const params = useParams();
  const templateNo = Number(params.id);
  const { shown: loaded, reload } = useShownTemplate(templateNo, Number.isSafeInteger(templateNo) && templateNo > 0);
  const [epoch, setEpoch] = useState(0);
  // Kept here: a change of state starts a new workspace (a new session), and its notice must outlive the old one.
  const [notice, setNotice] = useState<string | null>(null);
  useServerErrorOnFirstLoad(loaded.kind === 'error' ? loaded.error : null);

  if (loaded.kind === 'loading') return <TemplateFrame>{<SkeletonBlock lines={6} />}</TemplateFrame>;
  if (loaded.kind === 'missing')
    return (
      <TemplateFrame>
        <div data-testid="template-missing">
          <EmptyState icon={<TemplateIcon size={26} />} title={t('editor.missing')} />
        </div>
      </TemplateFrame>
    );
  if (loaded.kind === 'error')
    return (
      <TemplateFrame>
        <ErrorState message={apiErrorText(loaded.error, currentLanguage())} onRetry={() => void reload()} />
      </TemplateFrame>
    );
  if (loaded.kind === 'viewer') return <TemplateViewer answer={loaded.answer} />;
  // A new session after each change of state, so that the server authorises the connection afresh.
  return (
    <TemplateWorkspace
      key={`${templateNo}:${epoch}`}
      template={loaded.template}
      reload={reload}
      notice={notice}
      afterChange={async (message) => {
        setNotice(message ?? null);
        await reload();
        setEpoch((n) => n + 1);
      }}
    />
  );
}

function TemplateFrame({ children, tab }: { children: ReactNode; tab?: { templateNo: number; title: string } }) {
  const { t } = useTranslation('template');
  const { t: tc } = useTranslation();
  usePageTitle(tab?.title ?? tc('pages.templateNote.title'));
  return (
    <div className="page template-page" data-testid="page-template-note">
      <Link to="/template" className="back-link">
        <ArrowLeftIcon size={14} /> {t('editor.back')}
      </Link>
      {tab ? <TemplateTabs templateNo={tab.templateNo} title={tab.title} /> : null}
      {children}
    </div>
  );
}

/** Title, state (a reader sees the approved version, whatever is drafted meanwhile), latest approved version, author, description. */
function TemplateHeading({ template, state = template.state }: { template: TemplateDetail; state?: TemplateState }) {
  const { t } = useTranslation('template');
  return (
    <>
      <div className="template-heading">
        <h1 className="template-title" data-testid="template-title">
          {template.title}
        </h1>
        <TemplateStateBadge state={state} />
        {/* A version number in figures; the words saying there is none in the text's own font. */}
        <span className={template.version ? 'template-version' : 'template-version-none'} data-testid="template-header-version">
          {template.version ? t('editor.version', { version: template.version }) : t('editor.noVersion')}
        </span>
        <span className="template-author">{t('editor.by', { name: template.author })}</span>
      </div>
      {template.description ? <p className="template-description">{template.description}</p> : null}
    </>
  );
}

function TemplateViewer({ answer }: { answer: TemplateViewerAnswer }) {
  const { t } = useTranslation('template');
  const { template } = answer;
  return (
    <TemplateFrame tab={template}>
      <header className="template-header card">
        <TemplateHeading template={template} state={TEMPLATE_STATE.approved} />
      </header>
      <InlineAlert tone="info" testId="template-readonly-reason">
        {t('editor.readOnlyNoFlag')}
      </InlineAlert>
      <div className="card template-document">
        <StaticDocument blocks={answer.blockList} testId="template-static" />
      </div>
    </TemplateFrame>
  );
}

function useTemplateSession(templateNo: number): { session: TemplateSession | null; state: TemplateSessionState | null } {
  const account = useSession();
  const userId = account?.user.userId;
  const [session, setSession] = useState<TemplateSession | null>(null);
  // The name as it is when the session opens (a later change of it does not reopen the session).
  const nameNow = useEffectEvent(() => account?.user.name ?? '');
  // Opened by an effect, not during rendering: a render React discards (StrictMode renders and mounts
  // twice in development) would leave a connection nobody releases, and the release of the first mount
  // would end the session the second one shows.
  useEffect(() => {
    if (userId === undefined) return;
    const opened = new TemplateSession(templateNo, { userId, name: nameNow() });
    setSession(opened);
    return () => {
      setSession((shown) => (shown === opened ? null : shown));
      void opened.release();
    };
  }, [templateNo, userId]);
  const state = useSyncExternalStore(session?.subscribe ?? noSubscribe, session?.getState ?? noState);
  return { session, state };
}
const noSubscribe = () => () => undefined;
const noState = () => null;

interface WorkspaceProps {
  template: TemplateDetail;
  reload(): Promise<void>;
  notice: string | null;
  /** After a change of state: shows the message (if the new state's banner does not say it), reads the template again and opens a new session. */
  afterChange(message?: string): Promise<void>;
}

function TemplateWorkspace({ template, reload, notice, afterChange }: WorkspaceProps) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  const navigate = useNavigate();
  const { session, state } = useTemplateSession(template.templateNo);
  const uploadOwner = useMemo(() => ({ templateNo: template.templateNo }), [template.templateNo]);
  const commentPlace = useMemo(() => ({ templateNo: template.templateNo }), [template.templateNo]);
  // `?comment=<id>`: a comment a mention's notification names, opened beside the draft.
  const commentParam = Number(new URLSearchParams(useLocation().search).get('comment'));
  const focusComment = Number.isSafeInteger(commentParam) && commentParam > 0 ? commentParam : null;
  const [dialog, setDialog] = useState<'approve' | 'sendBack' | 'rename' | null>(null);
  const [busy, setBusy] = useState(false);
  const waiting = template.state === TEMPLATE_STATE.checking ? (template.revisions[0] ?? null) : null;

  const checkIn = async () => {
    if (!session || !(await confirm(t('editor.checkInConfirm'), { okLabel: t('editor.checkIn') }))) return;
    setBusy(true);
    try {
      await session.waitDurable(10_000);
      await call(api.templates.checkIn, {
        templateNo: template.templateNo,
        version: template.revision,
        blockList: session.blockList(),
      });
      // The checked-in state's banner says what happened and what comes next.
      await afterChange();
    } catch (error) {
      await alertApiError(error);
      await reload();
    } finally {
      setBusy(false);
    }
  };

  const startDraft = async () => {
    setBusy(true);
    try {
      await call(api.templates.reopen, { templateNo: template.templateNo });
      await afterChange(t('editor.startedDraft', { version: template.version ?? '' }));
    } catch (error) {
      // Checked in meanwhile: the approval is what can happen next.
      if (isApiError(error) && error.status === ERR.templateReady) {
        await reload();
        if (template.abilities.approve) setDialog('approve');
        else await alert(apiErrorText(error, language));
      } else if (isApiError(error) && error.httpStatus === 401) {
        await alertApiError(error);
      } else {
        // Spec §8: any other failure to open a template for editing shows the duplicate-modify message.
        await alert(t('editor.searchFailed'), { tone: 'error' });
        await reload();
      }
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!(await confirm(t('editor.deleteConfirm', { title: template.title }), { okLabel: t('editor.delete'), tone: 'error' }))) return;
    try {
      await call(api.templates.delete, { templateNo: template.templateNo });
      void navigate('/template');
    } catch (error) {
      await alertApiError(error);
    }
  };

  return (
    <TemplateFrame tab={template}>
      <header className="template-header card">
        <TemplateHeading template={template} />
        <div className="template-toolbar">
          <TemplatePresence state={state} />
          <div className="template-actions">
            {template.abilities.checkIn ? (
              <Button
                variant="primary"
                icon={<CheckCircleIcon size={16} />}
                onClick={() => void checkIn()}
                loading={busy}
                disabled={!state?.writable}
                data-testid="template-check-in"
              >
                {t('editor.checkIn')}
              </Button>
            ) : null}
            {template.abilities.approve ? (
              <>
                <Button variant="secondary" onClick={() => setDialog('sendBack')} data-testid="template-send-back">
                  {t('editor.sendBack')}
                </Button>
                <Button
                  variant="primary"
                  icon={<CheckCircleIcon size={16} />}
                  onClick={() => setDialog('approve')}
                  data-testid="template-approve"
                >
                  {t('editor.approve')}
                </Button>
              </>
            ) : null}
            {template.abilities.edit ? (
              <Button
                variant="primary"
                icon={<PencilIcon size={16} />}
                onClick={() => void startDraft()}
                loading={busy}
                data-testid="template-start-draft"
              >
                {t('editor.startDraft')}
              </Button>
            ) : null}
            {template.abilities.rename ? (
              <Button variant="secondary" onClick={() => setDialog('rename')} data-testid="template-rename">
                {t('editor.rename')}
              </Button>
            ) : null}
            {template.abilities.delete ? (
              <Button variant="secondary" onClick={() => void remove()} data-testid="template-delete">
                {t('editor.delete')}
              </Button>
            ) : null}
          </div>
        </div>
      </header>

      <TemplateBanner template={template} notice={notice} endedReason={state?.endedReason ?? null} />

      <div className="template-body">
        <div className="card template-document">
          {session && state?.synced ? (
            <CommentedDocument place={commentPlace} provider={session.provider} focusComment={focusComment}>
              {(commentProps) => (
                <LiveEditor
                  doc={session.doc}
                  provider={session.provider}
                  user={{ userId: session.user.userId, name: session.user.name, color: session.color }}
                  editable={state.writable}
                  uploadOwner={uploadOwner}
                  statuses={NO_STATUSES}
                  {...commentProps}
                />
              )}
            </CommentedDocument>
          ) : state?.refused ? (
            <ErrorState message={t('editor.missing')} />
          ) : (
            <SkeletonBlock lines={6} />
          )}
          {state ? <SaveLine state={state} /> : null}
        </div>
        <TemplateHistory template={template} />
      </div>

      {dialog === 'approve' && waiting ? (
        <ApproveDialog
          template={template}
          revision={waiting}
          onClose={() => setDialog(null)}
          onApproved={(version) => {
            setDialog(null);
            void afterChange(t('approve.approved', { version }));
          }}
        />
      ) : null}
      {dialog === 'sendBack' && waiting ? (
        <SendBackDialog
          template={template}
          revision={waiting}
          onClose={() => setDialog(null)}
          onSent={() => {
            setDialog(null);
            // The sent-back draft's banner names who sent it back and why.
            void afterChange();
          }}
        />
      ) : null}
      {dialog === 'rename' ? (
        <TemplateCreateDialog
          initial={template}
          onClose={() => setDialog(null)}
          onCreated={() => {
            setDialog(null);
            void reload();
          }}
        />
      ) : null}
    </TemplateFrame>
  );
}

/**
 * The one banner above the document: what state the template is in and what comes next, or what just
 * happened (`notice`), whichever says more; a reader who may not write the draft is told who does.
 */
function TemplateBanner({
  template,
  notice,
  endedReason,
}: {
  template: TemplateDetail;
  notice: string | null;
  endedReason: TemplateSessionState['endedReason'];
}) {
  const { t } = useTranslation('template');
  const latest = template.revisions[0] ?? null;
  const shown = ((): { tone: 'info' | 'success' | 'warning'; testId: string; text: string } | null => {
    if (template.state === TEMPLATE_STATE.checking && latest) {
      const names = template.approvalExcluded.map((person) => person.name).join(', ');
      return { tone: 'info', testId: 'template-waiting', text: t('editor.waiting', { revision: latest.revision, names }) };
    }
    if (endedReason)
      return {
        tone: 'info',
        testId: 'template-readonly-reason',
        text: t(endedReason === 'checked' ? 'editor.checkedEnded' : 'editor.accessEnded'),
      };
    if (template.state === TEMPLATE_STATE.draft && latest?.returnedAt) {
      const text = t('editor.returnedBecause', { name: latest.approvedBy ?? '', reason: latest.returnReason ?? '' });
      return { tone: 'warning', testId: 'template-returned', text };
    }
    if (notice) return { tone: 'success', testId: 'template-notice', text: notice };
    if (template.state === TEMPLATE_STATE.approved)
      return { tone: 'info', testId: 'template-readonly-reason', text: t('editor.readOnlyApproved', { version: template.version ?? '' }) };
    return null;
  })();
  const authorOnly =
    template.state === TEMPLATE_STATE.draft && !template.abilities.write && !endedReason
      ? t('editor.authorWrites', { name: template.author })
      : null;
  if (!shown && !authorOnly) return null;
  return (
    <InlineAlert tone={shown?.tone ?? 'info'} testId={shown?.testId ?? 'template-readonly-reason'}>
      {shown ? <p className="template-banner-line">{shown.text}</p> : null}
      {authorOnly ? (
        <p className="template-banner-line" data-testid="template-author-writes">
          {authorOnly}
        </p>
      ) : null}
    </InlineAlert>
  );
}

function TemplatePresence({ state }: { state: TemplateSessionState | null }) {
  const { t } = useTranslation('template');
  const writers = state?.writers ?? [];
  return (
    <div className="note-modifiers" data-testid="template-presence" data-count={writers.length}>
      <span className="note-modifiers-label">{t('editor.othersHere')}</span>
      {writers.length === 0 ? (
        <span className="note-modifiers-none">{t('editor.nobodyElse')}</span>
      ) : (
        <ul className="note-modifiers-list">
          {writers.map((writer) => (
            <li key={writer.userId} className="note-modifier" data-testid={`template-presence-${writer.userId}`}>
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

function SaveLine({ state }: { state: TemplateSessionState }) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  return (
    <p className="template-save-line" aria-live="polite">
      <span
        className={`save-state ${state.durable ? 'is-saved' : 'is-saving'}`}
        data-testid="template-save-state"
        data-saved={state.durable ? 'yes' : 'no'}
      >
        {state.durable ? t('editor.saved') : t('editor.saving')}
      </span>
      {state.tempFailed ? (
        <span className="draft-failed">{t('editor.tempFailed')}</span>
      ) : state.tempSavedAt ? (
        <span className="template-temp-saved" data-testid="template-temp-saved">
          {t('editor.tempSaved', { time: formatDateTime(state.tempSavedAt, language) })}
        </span>
      ) : null}
    </p>
  );
}
