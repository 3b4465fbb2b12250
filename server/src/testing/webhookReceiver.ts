import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver took: its headers and raw body. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the receiver answers: 200, 500, never (the sender's timeout ends it), or 200 after `delayMs`. */
/** How a path answers: 200, 500 with a long body, never, 200 after a delay, or 410 Gone (the receiver wants nothing more). */
export type ReceiverMode = { kind: 'ok' } | { kind: 'fail' } | { kind: 'hang' } | { kind: 'slow'; delayMs: number } | { kind: 'gone' };

/**
 * A real HTTP receiver on 127.0.0.1 (node:http) for the webhook tests: it keeps every request and answers
 * as its mode says, per path (`/a`, `/b`: one mode per endpoint).
 */
export class TestWebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly modes = new Map<string, ReceiverMode>();
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<TestWebhookReceiver> {
    let receiver: TestWebhookReceiver | null = null;
    const server = http.createServer((request, response) => receiver?.take(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new TestWebhookReceiver(server, (server.address() as AddressInfo).port);
    return receiver;
  }

  /** The URL of one path on this receiver, under a host name (the tests' resolver gives it 127.0.0.1). */
  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  setMode(path: string, mode: ReceiverMode): void {
    this.modes.set(path, mode);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  reset(): void {
    this.received.length = 0;
    this.modes.clear();
  }

  private take(request: http.IncomingMessage, response: http.ServerResponse): void {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      this.received.push({ path, headers: request.headers as Record<string, string>, body });
      const mode = this.modes.get(path) ?? { kind: 'ok' };
      if (mode.kind === 'hang') {
        this.hanging.add(response);
        return;
      }
      const answer = () => {
        response.statusCode = mode.kind === 'fail' ? 500 : mode.kind === 'gone' ? 410 : 200;
        response.end(mode.kind === 'fail' ? 'receiver broke: '.padEnd(2000, 'x') : 'thanks');
      };
      if (mode.kind === 'slow') setTimeout(answer, mode.delayMs);
      else answer();
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
