import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError, refreshSession } from '../../api';
import { currentLanguage } from '../../i18n';
import { alertApiError, hideProgress, showProgress } from '../../modals/store';
import { needsRefresh } from '../../session/model';
import { getSession, markSessionEnded } from '../../session/store';
import { toAuditExportBody, type AuditFilter } from './auditQuery';
import { downloadAuditCsv, type ExportDeps, type XhrLike } from './csvExport';
import { saveFile } from '../../lib/saveFile';

async function tryRefresh(): Promise<boolean> {
  try {
    return await refreshSession();
  } catch {
    // Unreachable server: try with the token we have; the server's answer decides.
    return false;
  }
}

export const browserDeps: ExportDeps = {
  createXhr: () => new XMLHttpRequest() as unknown as XhrLike,
  async accessToken() {
    const session = getSession();
    if (!session) return null;
    if (needsRefresh(session, Date.now())) await tryRefresh();
    return getSession()?.accessToken ?? null;
  },
  refresh: tryRefresh,
  language: currentLanguage,
  now: () => new Date(),
};

export interface SavedExport {
  filename: string;
  size: number;
}

/**
 * The audit CSV export: downloads with the loading overlay showing its progress, then saves the file.
 * A refusal shows the server's localised message; an ended session shows the session-ended modal.
 */
export function useAuditExport() {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<SavedExport | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      running.current?.abort();
      running.current = null;
    },
    [],
  );

  const run = useCallback(async (filter: AuditFilter): Promise<SavedExport | null> => {
    if (running.current) return null;
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setSaved(null);
    showProgress(0);
    try {
      const file = await downloadAuditCsv(
        toAuditExportBody(filter),
        (percent) => showProgress(percent ?? 0),
        browserDeps,
        controller.signal,
      );
      showProgress(100);
      saveFile(file.blob, file.filename);
      const result = { filename: file.filename, size: file.blob.size };
      if (!controller.signal.aborted) setSaved(result);
      return result;
    } catch (error) {
      hideProgress();
      if (controller.signal.aborted) return null;
      if (isApiError(error) && error.httpStatus === 401) markSessionEnded();
      else void alertApiError(error);
      return null;
    } finally {
      hideProgress();
      if (running.current === controller) running.current = null;
      if (!controller.signal.aborted) setBusy(false);
    }
  }, []);

  return { run, busy, saved, clearSaved: useCallback(() => setSaved(null), []) };
}
