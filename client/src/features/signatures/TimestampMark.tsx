import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type SignatureEntry } from '@eln/shared';
import { call } from '../../api/call';
import { currentLanguage } from '../../i18n';
import { saveFile } from '../../lib/saveFile';
import { Button } from '../../ui/Button';
import { formatZonedTime } from './zonedTime';

type Verified = Awaited<ReturnType<typeof verify>>;

const verify = (signatureId: number) => call(api.timestamps.verify, { kind: 'signature', id: String(signatureId) });

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The files an inspector checks the stamp with offline, named after the signature. */
function OfflineFiles({ entry, verified }: { entry: SignatureEntry; verified: Verified }) {
  const { t } = useTranslation('signature');
  if (!verified.token || !verified.chainPem) return null;
  const base = `signature-${entry.signatureId}`;
  const names = { token: `${base}.tsr`, data: `${base}.json`, chain: `${base}-chain.pem` };
  const { token, chainPem, subject } = verified;
  return (
    <div className="sig-stamp-files">
      <Button
        size="sm"
        variant="ghost"
        onClick={() => saveFile(new Blob([decodeBase64(token)], { type: 'application/timestamp-reply' }), names.token)}
      >
        {t('entry.timestamp.token')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => saveFile(new Blob([subject], { type: 'application/json' }), names.data)}>
        {t('entry.timestamp.data')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => saveFile(new Blob([chainPem], { type: 'application/x-pem-file' }), names.chain)}>
        {t('entry.timestamp.chain')}
      </Button>
      <code className="sig-stamp-command">{t('entry.timestamp.offline', names)}</code>
    </div>
  );
}

/**
 * A signature's trusted time-stamp: when and by which authority it was stamped (or that it is on its way,
 * or failed), with a check of the stored token anyone who reads the note may ask for, and the files to
 * repeat that check offline with OpenSSL.
 */
export function TimestampMark({ entry }: { entry: SignatureEntry }) {
  const { t } = useTranslation('signature');
  const [state, setState] = useState<{ busy: boolean; verified: Verified | null; failed: boolean }>({
    busy: false,
    verified: null,
    failed: false,
  });
  const stamp = entry.timestamp;
  if (!stamp || entry.status !== 'T') return null;
  if (stamp.status !== 'stamped') {
    return (
      <span
        className={`sig-stamp is-${stamp.status}`}
        title={t(`entry.timestamp.${stamp.status}Title`)}
        data-testid="signature-timestamp"
        data-status={stamp.status}
      >
        {t(`entry.timestamp.${stamp.status}`)}
      </span>
    );
  }
  const time = formatZonedTime(stamp.genTime ?? null, entry.timeZone, currentLanguage());
  const check = async () => {
    setState({ busy: true, verified: null, failed: false });
    try {
      setState({ busy: false, verified: await verify(entry.signatureId), failed: false });
    } catch {
      setState({ busy: false, verified: null, failed: true });
    }
  };
  const { verified } = state;
  return (
    <div className="sig-stamp is-stamped" data-testid="signature-timestamp" data-status="stamped">
      <span>{t('entry.timestamp.stamped', { time: time?.text ?? '', authority: stamp.authority ?? '' })}</span>
      <Button size="sm" variant="ghost" onClick={() => void check()} disabled={state.busy} data-testid="signature-timestamp-verify">
        {state.busy ? t('entry.timestamp.verifying') : t('entry.timestamp.verify')}
      </Button>
      <div role="status" aria-live="polite" className="sig-stamp-result">
        {state.failed ? <span className="sig-stamp-invalid">{t('entry.timestamp.verifyFailed')}</span> : null}
        {verified?.valid === true ? (
          <span className="sig-stamp-valid" data-testid="signature-timestamp-valid">
            {t('entry.timestamp.valid', {
              authority: verified.authority ?? '',
              signer: verified.signer ?? '',
              time: formatZonedTime(verified.genTime, entry.timeZone, currentLanguage())?.text ?? '',
            })}
          </span>
        ) : null}
        {verified?.valid === false ? (
          <span className="sig-stamp-invalid">{t('entry.timestamp.invalid', { fault: verified.fault ?? '' })}</span>
        ) : null}
        {verified?.valid === null ? <span>{t('entry.timestamp.notYet')}</span> : null}
      </div>
      {verified ? <OfflineFiles entry={entry} verified={verified} /> : null}
    </div>
  );
}
