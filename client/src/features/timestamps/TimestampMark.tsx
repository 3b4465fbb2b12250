import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type TimestampInfo, type TimestampSubject } from '@eln/shared';
import { call } from '../../api/call';
import { currentLanguage } from '../../i18n';
import { saveFile } from '../../lib/saveFile';
import { viewerTimeZone } from '../../lib/timeZone';
import { Button } from '../../ui/Button';
import { formatZonedTime } from '../signatures/zonedTime';
import './timestampMark.css';

type Verified = Awaited<ReturnType<typeof verify>>;

const verify = (kind: TimestampSubject, id: string) => call(api.timestamps.verify, { kind, id });

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The files an inspector checks the stamp with offline, named after the record. */
function OfflineFiles({ fileBase, verified }: { fileBase: string; verified: Verified }) {
  const { t } = useTranslation();
  if (!verified.token || !verified.chainPem) return null;
  const names = { token: `${fileBase}.tsr`, data: `${fileBase}.json`, chain: `${fileBase}-chain.pem` };
  const { token, chainPem, subject } = verified;
  return (
    <div className="ts-mark-files">
      <Button
        size="sm"
        variant="ghost"
        onClick={() => saveFile(new Blob([decodeBase64(token)], { type: 'application/timestamp-reply' }), names.token)}
      >
        {t('timestamp.token')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => saveFile(new Blob([subject], { type: 'application/json' }), names.data)}>
        {t('timestamp.data')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => saveFile(new Blob([chainPem], { type: 'application/x-pem-file' }), names.chain)}>
        {t('timestamp.chain')}
      </Button>
      <code className="ts-mark-command">{t('timestamp.offline', names)}</code>
    </div>
  );
}

export interface TimestampMarkProps {
  /** The record's stamp as its answer carries it; null: none was asked (nothing is shown). */
  stamp: TimestampInfo | null;
  /** The record, as `/v1/timestamp/verify` names it. */
  kind: TimestampSubject;
  id: string;
  /** The zone the stamp's time is shown in (the signer's for a signature); the screen's by default. */
  timeZone?: string | null;
  /** The offline files' names without their endings (`signature-12`, `export-…`). */
  fileBase: string;
  /** Prefix of the test ids (`signature-timestamp`, `version-timestamp`, ...). */
  testId: string;
}

/**
 * A record's trusted time-stamp: when and by which authority it was stamped (or that it is on its way,
 * or failed), with a check of the stored token anyone who may read the record can ask for, and the files
 * to repeat that check offline with OpenSSL.
 */
export function TimestampMark({ stamp, kind, id, timeZone, fileBase, testId }: TimestampMarkProps) {
  const { t } = useTranslation();
  const zone = timeZone ?? viewerTimeZone();
  const [state, setState] = useState<{ busy: boolean; verified: Verified | null; failed: boolean }>({
    busy: false,
    verified: null,
    failed: false,
  });
  if (!stamp) return null;
  if (stamp.status !== 'stamped') {
    return (
      <span
        className={`ts-mark is-${stamp.status}`}
        title={t(`timestamp.${stamp.status}Title`)}
        data-testid={testId}
        data-status={stamp.status}
      >
        {t(`timestamp.${stamp.status}`)}
      </span>
    );
  }
  const time = formatZonedTime(stamp.genTime ?? null, zone, currentLanguage());
  const check = async () => {
    setState({ busy: true, verified: null, failed: false });
    try {
      setState({ busy: false, verified: await verify(kind, id), failed: false });
    } catch {
      setState({ busy: false, verified: null, failed: true });
    }
  };
  const { verified } = state;
  return (
    <div className="ts-mark is-stamped" data-testid={testId} data-status="stamped">
      <span>{t('timestamp.stamped', { time: time?.text ?? '', authority: stamp.authority ?? '' })}</span>
      <Button size="sm" variant="ghost" onClick={() => void check()} disabled={state.busy} data-testid={`${testId}-verify`}>
        {state.busy ? t('timestamp.verifying') : t('timestamp.verify')}
      </Button>
      <div role="status" aria-live="polite" className="ts-mark-result">
        {state.failed ? <span className="ts-mark-invalid">{t('timestamp.verifyFailed')}</span> : null}
        {verified?.valid === true ? (
          <span className="ts-mark-valid" data-testid={`${testId}-valid`}>
            {t('timestamp.valid', {
              authority: verified.authority ?? '',
              signer: verified.signer ?? '',
              time: formatZonedTime(verified.genTime, zone, currentLanguage())?.text ?? '',
            })}
          </span>
        ) : null}
        {verified?.valid === false ? (
          <span className="ts-mark-invalid">{t('timestamp.invalid', { fault: verified.fault ?? '' })}</span>
        ) : null}
        {verified?.valid === null ? <span>{t('timestamp.notYet')}</span> : null}
      </div>
      {verified ? <OfflineFiles fileBase={fileBase} verified={verified} /> : null}
    </div>
  );
}
