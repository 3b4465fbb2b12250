import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  compareTemplateVersions,
  ERR,
  errorMessage,
  parseTemplateVersion,
  templateReturnRequest,
  templateVersionRefusal,
  type TemplateDetail,
  type TemplateRevision,
} from '@eln/shared';
import { apiErrorText, call, isApiError } from '../../api';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { fieldText, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';

interface RevisionDialogProps {
  template: TemplateDetail;
  revision: TemplateRevision;
  onClose(): void;
}

/** What is being decided on: the revision, who checked it in and when, and its fingerprint. */
function RevisionSubject({ template, revision }: Omit<RevisionDialogProps, 'onClose'>) {
  const { t } = useTranslation('template');
  return (
    <div className="template-subject">
      <p>
        {t('approve.what', {
          title: template.title,
          revision: revision.revision,
          name: revision.checkedBy,
          time: formatDateTime(revision.checkedAt, currentLanguage()),
        })}
      </p>
      <p className="template-fingerprint">
        <span>{t('approve.fingerprint')}</span> <code data-testid="template-approve-hash">{revision.blocksHash}</code>
      </p>
    </div>
  );
}

/** Refusals about the version typed: said beside the version field. */
const VERSION_REFUSALS = new Set<string>([
  ERR.templateVersionInvalid,
  ERR.templateVersionNotNumber,
  ERR.templateVersionForm,
  ERR.templateVersionNotGreater,
]);

/**
 * The approval: the version (a decimal such as 1.1, not 0 and not an integer, greater than the last
 * approved one; checked here with the server's own parsing and comparison, and again by the server), the
 * approver's password, and a warning when a temporary draft will be discarded.
 */
export function ApproveDialog({ template, revision, onClose, onApproved }: RevisionDialogProps & { onApproved(version: string): void }) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  const [version, setVersion] = useState(template.suggestedVersion);
  const [password, setPassword] = useState('');
  const [versionError, setVersionError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const versionRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const last = template.version;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPasswordError(null);
    const typed = parseTemplateVersion(version);
    if (!typed || (last !== null && compareTemplateVersions(typed, last) <= 0)) {
      setVersionError(typed ? t('approve.versionNotGreater', { last }) : errorMessage(templateVersionRefusal(version), language));
      versionRef.current?.focus();
      return;
    }
    setVersionError(null);
    if (!password) {
      setPasswordError(t('approve.wrongPassword'));
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await call(api.templates.approve, {
        templateNo: template.templateNo,
        version: typed,
        password,
        revision: revision.revision,
      });
      onApproved(answer.version);
    } catch (error) {
      setPassword('');
      if (isApiError(error) && VERSION_REFUSALS.has(error.status)) {
        setVersionError(apiErrorText(error, language));
        versionRef.current?.focus();
      } else if (isApiError(error) && error.status === ERR.badCredentials) {
        setPasswordError(t('approve.wrongPassword'));
        passwordRef.current?.focus();
      } else {
        setFailure(apiErrorText(error, language));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('approve.title')} onClose={onClose} testId="template-approve-dialog" initialFocus={versionRef} size="md">
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <RevisionSubject template={template} revision={revision} />
        {template.tempSavedAt ? (
          <InlineAlert tone="warning" testId="template-approve-temp">
            {t('approve.tempDiscarded', { time: formatDateTime(template.tempSavedAt, language) })}
          </InlineAlert>
        ) : null}
        {failure ? (
          <InlineAlert tone="error" testId="template-approve-failure">
            {failure}
          </InlineAlert>
        ) : null}
        <TextField
          ref={versionRef}
          label={t('approve.version')}
          required
          inputMode="decimal"
          value={version}
          maxLength={20}
          hint={last ? t('approve.versionHint', { last }) : t('approve.versionHintFirst')}
          error={versionError ?? undefined}
          onChange={(event) => {
            setVersion(event.target.value);
            setVersionError(null);
          }}
          testId="template-approve-version"
        />
        <TextField
          ref={passwordRef}
          label={t('approve.password')}
          required
          type="password"
          autoComplete="current-password"
          value={password}
          hint={t('approve.passwordHint')}
          error={passwordError ?? undefined}
          onChange={(event) => setPassword(event.target.value)}
          testId="template-approve-password"
        />
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {t('approve.cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={busy} data-testid="template-approve-submit">
            {t('approve.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Sends the waiting revision back to its authors with a reason; the template becomes a draft again. */
export function SendBackDialog({ template, revision, onClose, onSent }: RevisionDialogProps & { onSent(): void }) {
  const { t } = useTranslation('template');
  const language = currentLanguage();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(templateReturnRequest, { templateNo: template.templateNo, revision: revision.revision, reason });
    if (!checked.ok) {
      setErrors(checked.errors);
      reasonRef.current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await call(api.templates.sendBack, checked.data);
      onSent();
    } catch (error) {
      setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('sendBack.title')} onClose={onClose} testId="template-send-back-dialog" initialFocus={reasonRef} size="md">
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <RevisionSubject template={template} revision={revision} />
        {failure ? <InlineAlert tone="error">{failure}</InlineAlert> : null}
        <TextAreaField
          ref={reasonRef}
          label={t('sendBack.reason')}
          required
          hint={t('sendBack.reasonHint')}
          value={reason}
          maxLength={200}
          counter={{ length: reason.trim().length, max: 200 }}
          error={fieldText(errors, 'reason', language)}
          onChange={(event) => setReason(event.target.value)}
          testId="template-send-back-reason"
        />
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {t('approve.cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={busy} data-testid="template-send-back-submit">
            {t('sendBack.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
