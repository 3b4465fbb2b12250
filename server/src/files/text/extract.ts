import { Worker } from 'node:worker_threads';
import type { ExtraFileType } from '@eln/shared';

/** How a file's text is read: pdf.js, officeparser, or as text; null when text is not read from it. */
export type TextFormat = 'pdf' | 'office' | 'text';

const FORMATS: Record<string, TextFormat> = {
  pdf: 'pdf',
  docx: 'office',
  xlsx: 'office',
  pptx: 'office',
  odt: 'office',
  txt: 'text',
};

/** The format of a file of this extension: the spec's readable types, and the text types administrators added (CSV, logs). */
export function textFormatOf(extension: string, extra: readonly ExtraFileType[]): TextFormat | null {
  const known = FORMATS[extension];
  if (known) return known;
  return extra.some((type) => type.extension === extension && type.check === 'text') ? 'text' : null;
}

export type Extraction = { ok: true; text: string } | { ok: false; reason: string };

export interface ExtractOptions {
  /** Past this the worker is terminated and the file is unreadable. */
  timeLimitMs: number;
  maxChars: number;
  /** Ends the extraction at once (the server stops); it answers `{ ok: false, reason: 'aborted' }`. */
  signal?: AbortSignal;
}

/**
 * Reads a stored file's text in a worker thread of its own (extractWorker.mjs): parsing a PDF or an
 * Office file takes seconds and memory, and one built to hang a parser must not hold the server, so the
 * worker has a memory cap and is terminated past the time limit. Never throws: a file that cannot be read
 * answers why.
 */
export function extractText(filePath: string, extension: string, format: TextFormat, options: ExtractOptions): Promise<Extraction> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, reason: 'aborted' });
      return;
    }
    const worker = new Worker(new URL('./extractWorker.mjs', import.meta.url), {
      workerData: { path: filePath, format, extension, maxChars: options.maxChars },
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    let settled = false;
    const settle = (answer: Extraction) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      void worker.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => settle({ ok: false, reason: `no answer within ${options.timeLimitMs} ms` }), options.timeLimitMs);
    const abort = () => settle({ ok: false, reason: 'aborted' });
    options.signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (answer: { ok: boolean; text?: string; message?: string }) =>
      settle(
        answer.ok && typeof answer.text === 'string' ? { ok: true, text: answer.text } : { ok: false, reason: answer.message ?? 'no text' },
      ),
    );
    worker.once('error', (error) => settle({ ok: false, reason: error.message }));
    worker.once('exit', (code) => settle({ ok: false, reason: `the worker stopped (${code})` }));
  });
}
