import { lazy, Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { needsReviewerWarning, type SignatureEntry } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/Button';
import { InlineAlert } from '../../ui/InlineAlert';
import { TrashIcon } from '../editor/icons';
import type { NoteSession } from '../notes/noteSession';
import { RequestIcon, SignatureIcon } from './icons';
import { ownAnswerOf, panelActions } from './signerChoices';
import { printedName, SignatureCard } from './SignatureManifest';
import { SignatureOverview } from './SignatureOverview';
import { formatZonedTime } from './zonedTime';

/* The dialogs load when first opened: opening a note (the editor's chunk) does not wait for them. */
const RequestDialog = lazy(() => import('./RequestDialog').then((m) => ({ default: m.RequestDialog })));
const SignDialog = lazy(() => import('./SignDialog').then((m) => ({ default: m.SignDialog })));
const RemoveDialog = lazy(() => import('./RemoveDialog').then((m) => ({ default: m.RemoveDialog })));

/** How often an open note reads its summary again (others' requests, signatures and saves). */
export const SIGNATURES_REFRESH_MS = 5000;

type OpenDialog = { kind: 'request' } | { kind: 'sign'; entry: SignatureEntry } | { kind: 'remove'; entry: SignatureEntry } | null;

/**
 * The signatures area of an open note: every signature's manifestation, the caller's completion notice,
 * the warning when everyone signed but no reviewer did, and the actions the note's `abilities` allow:
 * request, sign or decline, remove.
 */
export function SignaturePanel({ session, expectLock }: { session: NoteSession; expectLock(on: boolean): void }) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const { note } = state;
  const me = session.user.userId;
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // Others' requests, signatures and saves reach an open note by reading its summary again now and then.
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') void session.refreshSummary();
    };
    const timer = window.setInterval(refresh, SIGNATURES_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [session]);

  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);

  const reload = useCallback(async () => {
    setDialog(null);
    await session.load();
  }, [session]);

  if (!note) return null;

  const list = note.signatureList;
  const { request: canRequest, remove: canRemove, pending } = panelActions(note, me);
  const own = ownAnswerOf(me, list);
  const ownTime = own ? formatZonedTime(own.signedAt, own.timeZone, language) : null;
  const warning = needsReviewerWarning(list);

  return (
    <section
      className="note-signatures"
      data-testid="signatures"
      data-count={list.length}
      aria-labelledby={`note-signatures-${session.noteNo}`}
    >
      <div className="note-signatures-head">
        <h2 className="note-signatures-title" id={`note-signatures-${session.noteNo}`}>
          <SignatureIcon size={16} />
          {t('area.title')}
          {list.length > 0 ? <span className="count-pill">{list.length}</span> : null}
        </h2>
        {list.length === 0 ? <span className="note-signatures-none">{t('area.none')}</span> : null}
        <div className="note-signatures-actions">
          {canRequest ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<RequestIcon size={15} />}
              onClick={() => setDialog({ kind: 'request' })}
              disabled={state.phase !== 'ready'}
              data-testid="signature-request"
            >
              {list.length > 0 ? t('area.changeSigners') : t('area.request')}
            </Button>
          ) : null}
          {pending ? (
            <Button
              variant="primary"
              size="sm"
              icon={<SignatureIcon size={15} />}
              onClick={() => setDialog({ kind: 'sign', entry: pending })}
              data-testid="signature-sign"
            >
              {t('area.sign')}
            </Button>
          ) : null}
        </div>
      </div>

      {notice ? (
        <InlineAlert tone="success" testId="signature-request-done">
          {notice}
        </InlineAlert>
      ) : null}
      {pending ? (
        <InlineAlert tone="info" testId="signature-pending-notice">
          {t('area.pendingForMe', { meaning: t(`meaning.${pending.type}`) })}
        </InlineAlert>
      ) : null}
      {own?.status === 'T' ? (
        <InlineAlert tone="success" testId="signature-done-notice">
          {t('area.done', { meaning: t(`meaning.${own.type}`), when: ownTime?.text ?? '—', version: own.signedVersion ?? '—' })}
        </InlineAlert>
      ) : own?.status === 'F' && !pending ? (
        <InlineAlert tone="info" testId="signature-declined-notice">
          {t('area.declined', { when: ownTime?.text ?? '—' })}
        </InlineAlert>
      ) : null}
      {warning ? (
        <InlineAlert tone="warning" testId="signature-no-reviewer-warning">
          {t('area.noReviewer')}
        </InlineAlert>
      ) : null}

      {list.length > 0 ? (
        <ul className="sig-cards">
          {list.map((entry) => (
            <SignatureCard
              key={entry.signatureId}
              entry={entry}
              mine={entry.userId === me}
              action={
                canRemove ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<TrashIcon size={15} />}
                    onClick={() => setDialog({ kind: 'remove', entry })}
                    aria-label={t('area.removeLabel', { name: printedName(entry) })}
                    title={t('area.removeLabel', { name: printedName(entry) })}
                    data-testid={`signature-remove-${entry.signatureId}`}
                  >
                    {t('area.remove')}
                  </Button>
                ) : null
              }
            />
          ))}
        </ul>
      ) : null}
      {list.length > 0 ? (
        <SignatureOverview labNoteNo={session.noteNo} refreshKey={list.map((s) => `${s.signatureId}:${s.status}`).join(',')} />
      ) : null}

      <Suspense fallback={null}>
        {dialog?.kind === 'request' ? (
          <RequestDialog
            note={note}
            me={me}
            onClose={() => setDialog(null)}
            onSaved={() => {
              setNotice(t('request.done'));
              void reload();
            }}
          />
        ) : null}
        {dialog?.kind === 'sign' ? (
          <SignDialog
            session={session}
            entry={dialog.entry}
            defaultName={session.user.name}
            beforeSign={(answer) => expectLock(answer === 'T')}
            onClose={() => setDialog(null)}
            onAnswered={() => void reload()}
          />
        ) : null}
        {dialog?.kind === 'remove' ? (
          <RemoveDialog labNoteNo={session.noteNo} entry={dialog.entry} onClose={() => setDialog(null)} onRemoved={() => void reload()} />
        ) : null}
      </Suspense>
    </section>
  );
}
