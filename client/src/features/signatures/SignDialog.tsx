import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ERR, LIMITS, signatureStatusRequest, type SignatureEntry } from '@eln/shared';
import { apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from '../../api';
import { useApiMutation } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { EyeIcon, EyeOffIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { secondsLeft } from '../auth/lockout';
import type { NoteSession } from '../notes/noteSession';
import { DeclinedIcon, SignatureIcon } from './icons';
import { SIGNATURES_SHOWN_ON } from './signerChoices';
import { viewerTimeZone } from '../../lib/timeZone';

const DESCRIPTION_MAX = 500;

type Answer = 'T' | 'F';

/** Refusals after which the note is read again, so that the dialog shows what could be signed now. */
const REREAD_ON = new Set<string>([ERR.unsavedChanges, ERR.conflict, ERR.noPendingSignature, ERR.versionTampered, ERR.projectClosed]);

/**
 * The signature dialog: exactly what is signed (note, lab note number, version and when it was saved),
 * the meaning of the requested signature, the printed name, the password (asked every time) and an
 * optional comment; Sign (T) or Decline (F). A note with unsaved changes cannot be signed (the server's
 * 2021 is the final word); a wrong password is shown beside the field; too many lock signing for a while.
 */
export function SignDialog({
  session,
  entry,
  defaultName,
  onClose,
  onAnswered,
  beforeSign,
}: {
  session: NoteSession;
  entry: SignatureEntry;
  defaultName: string;
  onClose(): void;
  onAnswered(answer: Answer): void;
  /** Called right before the call, so that the end of the hold it causes is not announced to the signer. */
  beforeSign(answer: Answer | null): void;
}) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const { note } = state;
  const [name, setName] = useState(defaultName.slice(0, LIMITS.signatureName));
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Answer | null>(null);
  const respond = useApiMutation(api.signatures.respond, { invalidates: SIGNATURES_SHOWN_ON });
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [openedAt] = useState(() => state.version);
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const zone = viewerTimeZone();
  const subjectId = useId();

  // What is signed must be current: read the note again as the dialog opens.
  useEffect(() => {
    void session.refreshSummary();
  }, [session]);

  const remaining = secondsLeft(lockedUntil, now);
  useEffect(() => {
    if (lockedUntil === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [lockedUntil]);
  useEffect(() => {
    if (lockedUntil !== null && remaining === 0) setLockedUntil(null);
  }, [lockedUntil, remaining]);

  /** Focuses the first field in error at once (not a frame later, when the user may be typing elsewhere). */
  const focusInvalid = (invalid: FieldErrorMap) => {
    const first = invalid.name
      ? nameRef.current
      : invalid.password
        ? passwordRef.current
        : invalid.description
          ? descriptionRef.current
          : null;
    first?.focus();
  };

  const noVersion = state.version < 1;
  const unsaved = state.synced && state.hasChange;
  const cannotSign = noVersion || unsaved;

  const answer = async (status: Answer) => {
    if (busy || remaining > 0) return;
    setFailure(null);
    setPasswordError(null);
    const checked = validateForm(signatureStatusRequest, {
      labNoteNo: session.noteNo,
      status,
      password,
      name,
      description,
      timeZone: zone,
      ...(status === 'T' ? { version: state.version } : {}),
    });
    if (!checked.ok) {
      setErrors(checked.errors);
      focusInvalid(checked.errors);
      return;
    }
    setErrors({});
    setBusy(status);
    beforeSign(status);
    try {
      await respond.mutateAsync(checked.data);
      onAnswered(status);
    } catch (error) {
      beforeSign(null);
      setPassword('');
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        const invalid = toErrorMap(fields);
        setErrors(invalid);
        focusInvalid(invalid);
      } else if (isApiError(error) && error.status === ERR.badCredentials) {
        setPasswordError(t('dialog.wrongPassword'));
        passwordRef.current?.focus();
      } else if (isApiError(error) && error.status === ERR.tooManyAttempts) {
        // eslint-disable-next-line react-hooks/purity -- `answer` runs on the form's submit and the decline button's click, never while rendering
        const start = Date.now();
        setNow(start);
        setLockedUntil(start + (retryAfterOf(error) ?? 60) * 1000);
      } else if (isApiError(error) && error.httpStatus === 401) {
        // The session ended: the application's session-ended flow takes over.
        onClose();
      } else {
        setFailure(apiErrorText(error, language));
        // Unsaved changes, a newer version, a request withdrawn meanwhile: show the note as it is now.
        if (isApiError(error) && REREAD_ON.has(error.status)) void session.refreshSummary();
      }
    } finally {
      setBusy(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!cannotSign) void answer('T');
  };

  const failureText = remaining > 0 ? t('dialog.locked', { seconds: remaining }) : failure;
  const saved = state.savedAt ? formatDateTime(state.savedAt, language) : null;

  return (
    <Dialog
      title={t('dialog.title')}
      icon={<SignatureIcon size={20} />}
      onClose={busy ? undefined : onClose}
      size="md"
      testId="signature-dialog"
      initialFocus={passwordRef}
    >
      <form className="form sig-form" onSubmit={submit} noValidate>
        <section className="sig-subject" aria-labelledby={subjectId}>
          <h3 className="sig-subject-title" id={subjectId}>
            {t('dialog.signing')}
          </h3>
          <dl className="sig-subject-list">
            <div>
              <dt>{t('dialog.note')}</dt>
              <dd className="sig-subject-strong" data-testid="signature-note-title">
                {note?.title}
              </dd>
            </div>
            <div>
              <dt>{t('dialog.labNoteNumber')}</dt>
              <dd className="sig-subject-mono" data-testid="signature-note-number">
                {note?.labNoteNumber}
              </dd>
            </div>
            <div>
              <dt>{t('dialog.version')}</dt>
              <dd data-testid="signature-version" data-version={state.version}>
                {noVersion ? (
                  <span className="cell-muted">—</span>
                ) : (
                  <>
                    <span className="sig-version sig-version-lg">{t('dialog.versionValue', { version: state.version })}</span>{' '}
                    <span className="sig-subject-sub">
                      {saved
                        ? state.savedBy
                          ? t('dialog.savedBy', { when: saved, name: state.savedBy })
                          : t('dialog.savedAt', { when: saved })
                        : null}
                    </span>
                  </>
                )}
              </dd>
            </div>
          </dl>
        </section>

        {state.version !== openedAt ? (
          <InlineAlert tone="info" testId="signature-refreshed">
            {t('dialog.refreshed')}
          </InlineAlert>
        ) : null}
        {noVersion ? (
          <InlineAlert tone="warning" testId="signature-no-version">
            {t('dialog.noVersion')}
          </InlineAlert>
        ) : unsaved ? (
          <InlineAlert tone="warning" testId="signature-unsaved">
            {t('dialog.unsaved')}
          </InlineAlert>
        ) : null}
        {failureText ? (
          <InlineAlert tone="error" testId="signature-error">
            {failureText}
          </InlineAlert>
        ) : null}

        <div className="sig-meaning-box" data-testid="signature-meaning" data-type={entry.type}>
          <span className="sig-meaning-label">{t('dialog.meaning')}</span>
          <span className={`badge ${entry.type === 'reviewer' ? 'badge-accent' : 'badge-neutral'}`}>{t(`meaning.${entry.type}`)}</span>
          <p className="sig-meaning-help">{t(`dialog.meaningHelp.${entry.type}`)}</p>
        </div>

        <div className="form-grid form-grid-2">
          <TextField
            ref={nameRef}
            label={t('dialog.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setErrors(({ name: _name, ...rest }) => rest);
            }}
            maxLength={LIMITS.signatureName + 10}
            required
            autoComplete="name"
            counter={{ length: name.trim().length, max: LIMITS.signatureName }}
            error={fieldText(errors, 'name', language)}
            hint={t('dialog.nameHint')}
            testId="signature-name"
          />
          <TextField
            ref={passwordRef}
            label={t('dialog.password')}
            type={showPassword ? 'text' : 'password'}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setPasswordError(null);
              setErrors(({ password: _password, ...rest }) => rest);
            }}
            required
            autoComplete="current-password"
            error={passwordError ?? fieldText(errors, 'password', language)}
            hint={t('dialog.passwordHint')}
            testId="signature-password"
            trailing={
              <button
                type="button"
                className="icon-btn icon-btn-sm"
                onClick={() => setShowPassword((shown) => !shown)}
                aria-label={showPassword ? t('dialog.hidePassword') : t('dialog.showPassword')}
                aria-pressed={showPassword}
                title={showPassword ? t('dialog.hidePassword') : t('dialog.showPassword')}
              >
                {showPassword ? <EyeOffIcon size={17} /> : <EyeIcon size={17} />}
              </button>
            }
          />
        </div>
        <TextAreaField
          ref={descriptionRef}
          label={t('dialog.description')}
          value={description}
          onChange={(event) => {
            setDescription(event.target.value);
            setErrors(({ description: _description, ...rest }) => rest);
          }}
          maxLength={DESCRIPTION_MAX + 20}
          rows={2}
          counter={description.length > 0 ? { length: description.trim().length, max: DESCRIPTION_MAX } : undefined}
          error={fieldText(errors, 'description', language)}
          hint={t('dialog.descriptionHint')}
          testId="signature-description"
        />

        {!noVersion ? <p className="sig-statement">{t('dialog.statement', { version: state.version, zone })}</p> : null}

        <div className="modal-footer modal-footer-inline sig-footer">
          <Button variant="ghost" onClick={onClose} disabled={busy !== null}>
            {t('dialog.cancel')}
          </Button>
          <span className="sig-footer-spacer" />
          <Button
            variant="secondary"
            className="sig-decline"
            icon={<DeclinedIcon size={16} />}
            onClick={() => void answer('F')}
            loading={busy === 'F'}
            disabled={busy === 'T' || remaining > 0}
            data-testid="signature-decline"
          >
            {t('dialog.decline')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            icon={<SignatureIcon size={16} />}
            loading={busy === 'T'}
            disabled={cannotSign || busy === 'F' || remaining > 0}
            data-testid="signature-submit"
          >
            {t('dialog.sign')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
