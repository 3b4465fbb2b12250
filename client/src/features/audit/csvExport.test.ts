import { describe, expect, it } from 'vitest';
import { api } from '@eln/shared';
import { ApiError } from '../../api/errors';
import {
  downloadAuditCsv,
  exportError,
  fallbackFilename,
  filenameFromDisposition,
  formatSize,
  progressPercent,
  type ExportDeps,
  type XhrLike,
} from './csvExport';

describe('CSV download helpers', () => {
  it('turns progress events into a percent, or null when the size is unknown', () => {
    expect(progressPercent(50, 200, true)).toBe(25);
    expect(progressPercent(200, 200, true)).toBe(100);
    expect(progressPercent(300, 200, true)).toBe(100);
    expect(progressPercent(10, 0, true)).toBeNull();
    expect(progressPercent(10, 100, false)).toBeNull();
  });

  it('reads the file name from Content-Disposition, safely', () => {
    expect(filenameFromDisposition('attachment; filename="audit-trail-2026-11-22.csv"')).toBe('audit-trail-2026-11-22.csv');
    expect(filenameFromDisposition('attachment; filename="x.csv"; filename*=UTF-8\'\'%EA%B0%90%EC%82%AC.csv')).toBe('감사.csv');
    expect(filenameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });

  it('falls back to a dated name', () => {
    expect(fallbackFilename(new Date(2026, 0, 5, 12))).toBe('audit-trail-2026-01-05.csv');
  });

  it('reads a refusal from the envelope, else from the HTTP status', () => {
    const refused = exportError(403, JSON.stringify({ status: '9003', message: 'Not allowed.', data: null }), 'en');
    expect(refused).toBeInstanceOf(ApiError);
    expect([refused.status, refused.message, refused.httpStatus]).toEqual(['9003', 'Not allowed.', 403]);
    const proxy = exportError(502, '<html>Bad gateway</html>', 'en');
    expect(proxy.httpStatus).toBe(502);
    expect(proxy.message).not.toBe('');
  });

  it('writes sizes people read', () => {
    expect(formatSize(512, 'en')).toBe('512 B');
    expect(formatSize(12_600, 'en')).toBe('12 KB');
    expect(formatSize(3_500, 'en')).toBe('3.4 KB');
    expect(formatSize(5 * 1024 * 1024, 'en')).toBe('5 MB');
  });
});

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A scripted XMLHttpRequest: each send() answers the next reply, with two progress events. */
function fakeXhr(replies: Reply[], sent: Array<{ url: string; headers: Record<string, string>; body: string }>) {
  return (): XhrLike => {
    const headers: Record<string, string> = {};
    let url = '';
    let reply: Reply | undefined;
    let aborted = false;
    const xhr: XhrLike = {
      responseType: '',
      get status() {
        return reply?.status ?? 0;
      },
      get response() {
        return reply ? new Blob([reply.body]) : null;
      },
      onprogress: null,
      onload: null,
      onerror: null,
      onabort: null,
      open(_method, target) {
        url = target;
      },
      setRequestHeader(name, value) {
        headers[name] = value;
      },
      getResponseHeader(name) {
        return reply?.headers?.[name.toLowerCase()] ?? null;
      },
      send(body) {
        sent.push({ url, headers: { ...headers }, body });
        reply = replies.shift();
        queueMicrotask(() => {
          if (aborted) return;
          if (!reply) return xhr.onerror?.();
          const size = reply.body.length;
          xhr.onprogress?.({ loaded: Math.floor(size / 2), total: size, lengthComputable: true });
          xhr.onprogress?.({ loaded: size, total: size, lengthComputable: true });
          xhr.onload?.();
        });
      },
      abort() {
        aborted = true;
        queueMicrotask(() => xhr.onabort?.());
      },
    };
    return xhr;
  };
}

function deps(replies: Reply[], options: { refresh?: boolean } = {}) {
  const sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  let token = 'token-1';
  const result: ExportDeps = {
    createXhr: fakeXhr(replies, sent),
    accessToken: async () => token,
    refresh: async () => {
      if (!options.refresh) return false;
      token = 'token-2';
      return true;
    },
    language: () => 'ko',
    now: () => new Date(2026, 10, 22),
  };
  return { deps: result, sent };
}

const CSV = '\uFEFFseq,at\r\n1,2026-11-22T00:00:00.000Z\r\n';

describe('downloading the audit CSV', () => {
  it('posts the filters with the token and reports progress up to 100', async () => {
    const { deps: d, sent } = deps([
      { status: 200, body: CSV, headers: { 'content-disposition': 'attachment; filename="audit-trail-2026-11-22.csv"' } },
    ]);
    const progress: Array<number | null> = [];
    const file = await downloadAuditCsv({ action: 'user.signIn' }, (p) => progress.push(p), d);
    expect(file.filename).toBe('audit-trail-2026-11-22.csv');
    // (Blob.text() drops the byte-order mark, as TextDecoder does.)
    expect(file.blob.size).toBe(new TextEncoder().encode(CSV).length);
    expect(await file.blob.text()).toBe(CSV.slice(1));
    expect(progress.at(-1)).toBe(100);
    expect(progress[0]).toBeLessThan(100);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: `/server${api.audit.exportCsv.path}`,
      body: JSON.stringify({ action: 'user.signIn' }),
      headers: { Authorization: 'Bearer token-1', 'Content-Type': 'application/json', 'Accept-Language': 'ko' },
    });
  });

  it('names the file itself when the server does not', async () => {
    const { deps: d } = deps([{ status: 200, body: CSV }]);
    expect((await downloadAuditCsv({}, () => undefined, d)).filename).toBe('audit-trail-2026-11-22.csv');
  });

  it('retries once with rotated tokens after a 401', async () => {
    const { deps: d, sent } = deps(
      [
        { status: 401, body: '{"status":"1002","message":"expired","data":null}' },
        { status: 200, body: CSV },
      ],
      { refresh: true },
    );
    await downloadAuditCsv({}, () => undefined, d);
    expect(sent.map((s) => s.headers.Authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('rejects with the envelope of a refusal', async () => {
    const { deps: d, sent } = deps([{ status: 401, body: '{"status":"1002","message":"Session ended.","data":null}' }]);
    await expect(downloadAuditCsv({}, () => undefined, d)).rejects.toMatchObject({
      status: '1002',
      httpStatus: 401,
      message: 'Session ended.',
    });
    expect(sent).toHaveLength(1);
    const bad = deps([
      { status: 400, body: '{"status":"9001","message":"Invalid.","data":{"fields":[{"field":"startDate","reason":"invalidFormat"}]}}' },
    ]);
    await expect(downloadAuditCsv({ startDate: 'x' }, () => undefined, bad.deps)).rejects.toMatchObject({
      status: '9001',
      httpStatus: 400,
    });
  });

  it('rejects as unavailable when the network fails', async () => {
    const { deps: d } = deps([]);
    await expect(downloadAuditCsv({}, () => undefined, d)).rejects.toMatchObject({ httpStatus: 0 });
  });

  it('stops when aborted, before or during the download', async () => {
    const early = deps([{ status: 200, body: CSV }]);
    const before = new AbortController();
    before.abort();
    await expect(downloadAuditCsv({}, () => undefined, early.deps, before.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(early.sent).toHaveLength(0);

    const late = deps([{ status: 200, body: CSV }]);
    const during = new AbortController();
    const pending = downloadAuditCsv(
      {},
      () => undefined,
      {
        ...late.deps,
        createXhr: () => {
          const xhr = late.deps.createXhr();
          const send = xhr.send.bind(xhr);
          xhr.send = (body) => {
            send(body);
            during.abort();
          };
          return xhr;
        },
      },
      during.signal,
    );
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(late.sent).toHaveLength(1);
  });
});
