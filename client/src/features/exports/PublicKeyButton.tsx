import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@eln/shared';
import { call } from '../../api';
import { alertApiError } from '../../modals/store';
import { Button } from '../../ui/Button';
import { KeyIcon } from '../../ui/icons';
import { saveFile } from '../../lib/saveFile';

/** The file name the public key is saved under (the one the hint's minisign command names). */
export const PUBLIC_KEY_FILE = 'eln-export.pub';

/** Saves the key that signs this notebook's .eln archives, in minisign's .pub format. */
export function PublicKeyButton({ testId }: { testId: string }) {
  const { t } = useTranslation('audit');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const key = await call(api.exports.publicKey, {});
      saveFile(new Blob([key.minisignPub], { type: 'text/plain' }), PUBLIC_KEY_FILE);
    } catch (error) {
      void alertApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="ghost"
      icon={<KeyIcon size={15} />}
      loading={busy}
      onClick={() => void save()}
      title={t('exports.publicKeyHint')}
      data-testid={testId}
    >
      {t('exports.publicKey')}
    </Button>
  );
}
