import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadIcon } from '../../ui/icons';

/**
 * The note screen's PDF of the saved version on screen. A short export downloads at once under the loading
 * overlay; a longer one goes on behind the screen, its progress on this button, and downloads when done. The
 * export code loads when first used (the note screen stays small).
 */
export function NotePdfButton({ noteNo, version }: { noteNo: number; version: number }) {
  const { t } = useTranslation('audit');
  const statusId = useId();
  const [exporting, setExporting] = useState(false);
  /** Percent of a long export followed here (then of its download); null while none is. */
  const [longProgress, setLongProgress] = useState<number | null>(null);
  const closed = useRef(new AbortController());

  useEffect(() => {
    const controller = new AbortController();
    closed.current = controller;
    return () => controller.abort();
  }, []);

  const exportPdf = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const { startExport } = await import('./exportJobs');
      await startExport({ format: 'pdf', noteNo, version }, { followLong: { onProgress: setLongProgress, signal: closed.current.signal } });
    } finally {
      setExporting(false);
      setLongProgress(null);
    }
  };

  // aria-disabled, not disabled: a long export keeps the button for minutes, and a disabled one would drop
  // the keyboard's focus and its description with it.
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary btn-md"
        onClick={() => void exportPdf()}
        aria-disabled={exporting || undefined}
        aria-busy={exporting || undefined}
        aria-describedby={longProgress === null ? undefined : statusId}
        title={longProgress === null ? t('exports.notePdfTitle') : t('exports.notePdfLong')}
        data-testid="note-export-pdf"
        data-progress={longProgress ?? undefined}
      >
        {exporting ? <span className="spinner" aria-hidden="true" /> : <DownloadIcon size={16} />}
        {longProgress === null ? t('exports.notePdf') : t('exports.notePdfRunning', { progress: longProgress })}
      </button>
      <span className="visually-hidden" id={statusId} role="status" data-testid="note-export-pdf-status">
        {longProgress === null ? '' : t('exports.notePdfLong')}
      </span>
    </>
  );
}
