import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerParent, monotonicMs } from './forked.js';

/**
 * The webhook bench's receivers (webhooks.bench.ts), forked apart from the server so that answering ten
 * thousand posts never counts as the server's time. One node:http server; each path is an endpoint. Times
 * are `process.hrtime` (CLOCK_MONOTONIC), one clock for every process on the machine.
 */

export type ReceiverRequest = { type: 'start' } | { type: 'report' } | { type: 'reset' } | { type: 'close' };
export type ReceiverReply =
  | { type: 'started'; port: number }
  | { type: 'report'; arrivals: Array<[id: string, at: number]>; order: Array<[path: string, numbers: number[]]> }
  | { type: 'reset' }
  | { type: 'error'; message: string }
  | { type: 'closed' };

let arrivals: Array<[string, number]> = [];
let order = new Map<string, number[]>();
const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    arrivals.push([request.headers['webhook-id'] as string, monotonicMs()]);
    const n = (JSON.parse(body) as { data: { userNos: number[] } }).data.userNos[0]!;
    const path = request.url ?? '/';
    order.set(path, [...(order.get(path) ?? []), n]);
    response.end('ok');
  });
});

if (process.send)
  answerParent<ReceiverRequest, ReceiverReply>('close', async (request) => {
    switch (request.type) {
      case 'start':
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return { type: 'started', port: (server.address() as AddressInfo).port };
      case 'report':
        return { type: 'report', arrivals, order: [...order] };
      case 'reset':
        arrivals = [];
        order = new Map();
        return { type: 'reset' };
      case 'close':
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        return null;
    }
  });
