import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WEBHOOK_LIMITS } from '@eln/shared';
import type { CheckedTarget } from './address.js';

/** What one try came to: the receiver's answer, or why there was none. */
export type SendOutcome =
  { ok: boolean; status: number; latencyMs: number; excerpt: string } | { ok: false; status: null; latencyMs: number; error: string };

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * Posts one delivery to the address the SSRF check allowed: the connection is made to that address (the
 * host name is kept for TLS and the Host header, never resolved again). The whole try (connecting,
 * sending, the answer's head and its first characters) is bounded by `timeoutMs`; redirects are not
 * followed (a 3xx is a failed try). Only the first WEBHOOK_LIMITS.responseExcerptChars of the answer are read.
 */
export function postWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const secure = target.url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = (secure ? https : http).request(
      target.url,
      {
        method: 'POST',
        lookup,
        agent: secure ? agents.https : agents.http,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'ELN-Webhooks/1',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let excerpt = '';
        const finish = () => settle({ ok: status >= 200 && status < 300, status, latencyMs: elapsed(), excerpt });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          excerpt += chunk;
          if (excerpt.length >= WEBHOOK_LIMITS.responseExcerptChars) {
            excerpt = excerpt.slice(0, WEBHOOK_LIMITS.responseExcerptChars);
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      settle({ ok: false, status: null, latencyMs: elapsed(), error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => settle({ ok: false, status: null, latencyMs: elapsed(), error: error.message }));
    request.end(body);
  });
}
