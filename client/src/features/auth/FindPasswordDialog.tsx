import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authCalls, findPasswordRequest } from '@eln/shared';
import { call } from '../../api';
import { validateForm } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { MailIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { UserIdField } from './UserIdField';

/** Find password: the server always answers success, so the answer never tells whether an account exists. */
export function FindPasswordDialog({ initialUserId, onClose }: { initialUserId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState(initialUserId);
  const [sent, setSent] = useState(false);
  const form = useFormSubmit({
    check: () => validateForm(findPasswordRequest, { userId }),
    send: async (data) => {
      await call(authCalls.findPassword, data);
      setSent(true);
    },
  });

  return (
    <Dialog
      title={t('findPassword.title')}
      icon={<MailIcon size={20} />}
      onClose={onClose}
      closeOnBackdrop
      testId="find-password-dialog"
      footer={
        sent ? (
          <Button variant="primary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button variant="primary" type="submit" form="find-password-form" loading={form.busy} data-testid="find-password-submit">
              {t('findPassword.submit')}
            </Button>
          </>
        )
      }
    >
      {sent ? (
        <InlineAlert tone="success" testId="find-password-sent">
          {t('findPassword.sent')}
        </InlineAlert>
      ) : (
        <form id="find-password-form" ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate>
          <p className="dialog-intro">{t('findPassword.intro')}</p>
          {form.failure ? <InlineAlert tone="error">{form.failure}</InlineAlert> : null}
          <UserIdField
            label={t('findPassword.email')}
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
            error={form.fieldError('userId')}
            testId="find-password-email"
          />
        </form>
      )}
    </Dialog>
  );
}
