import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authCalls, findIdRequest } from '@eln/shared';
import { call } from '../../api';
import { validateForm } from '../../lib/forms';
import { useFormSubmit } from '../../lib/useFormSubmit';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { UserIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';

/** Find ID: name and phone → the account's email, partly hidden. */
export function FindIdDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [found, setFound] = useState<string | null>(null);
  const form = useFormSubmit({
    check: () => validateForm(findIdRequest, { name, phone }),
    send: async (data) => {
      const answer = await call(authCalls.findId, data);
      setFound(answer.maskedUserId);
    },
  });

  return (
    <Dialog
      title={t('findId.title')}
      icon={<UserIcon size={20} />}
      onClose={onClose}
      closeOnBackdrop
      testId="find-id-dialog"
      footer={
        found ? (
          <Button variant="primary" onClick={onClose}>
            {t('findId.useId')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button variant="primary" type="submit" form="find-id-form" loading={form.busy} data-testid="find-id-submit">
              {t('findId.submit')}
            </Button>
          </>
        )
      }
    >
      {found ? (
        <div className="result-box" role="status" data-testid="find-id-result">
          <p className="result-label">{t('findId.result')}</p>
          <p className="result-value">{found}</p>
          <p className="result-hint">{t('findId.resultHint')}</p>
        </div>
      ) : (
        <form id="find-id-form" ref={form.ref} className="form" onSubmit={form.onSubmit} noValidate>
          <p className="dialog-intro">{t('findId.intro')}</p>
          {form.failure ? (
            <InlineAlert tone="error" testId="find-id-error">
              {form.failure}
            </InlineAlert>
          ) : null}
          <TextField
            label={t('findId.name')}
            name="name"
            autoComplete="name"
            placeholder={t('findId.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={form.fieldError('name')}
            testId="find-id-name"
          />
          <TextField
            label={t('findId.phone')}
            name="phone"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            placeholder={t('findId.phonePlaceholder')}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            error={form.fieldError('phone')}
            testId="find-id-phone"
          />
        </form>
      )}
    </Dialog>
  );
}
