import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** What the server answers to the next message's DATA: accept it, refuse it with a code, or never answer. */
export type SmtpAnswer = { kind: 'accept' } | { kind: 'refuse'; code: number; text: string } | { kind: 'stall' };

/**
 * A real SMTP server on loopback for the mail tests (the `smtp-server` package): it takes mails without
 * authentication or TLS, keeps each one it accepted as `mailparser` reads it, and can be told to refuse
 * the next messages (a 451 "try later", say) or to hold them without an answer (a server that hangs).
 */
export class TestSmtpServer {
  /** Every message accepted (answered 250), in order. */
  readonly received: ParsedMail[] = [];
  /** The Message-ID of every message whose data arrived, accepted or not, in order. */
  readonly delivered: string[] = [];
  /** Recipients refused for good (550 to RCPT TO). */
  readonly unknownRecipients = new Set<string>();
  private readonly plan: SmtpAnswer[] = [];
  private fallback: SmtpAnswer = { kind: 'accept' };
  private readonly waiters = new Set<() => void>();
  /** Messages held without an answer (`stall`), with what accepting them would do. */
  private readonly held: Array<() => void> = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<TestSmtpServer> {
    let self: TestSmtpServer | null = null;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (self?.unknownRecipients.has(address.address)) callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        else callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => void self?.answer(Buffer.concat(chunks), callback));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = (server.server.address() as AddressInfo | null) ?? { port: 0 };
    self = new TestSmtpServer(server, port);
    return self;
  }

  /** Forgets what arrived and every plan: the next test starts from an empty, accepting server. */
  reset(): void {
    this.received.length = 0;
    this.delivered.length = 0;
    this.plan.length = 0;
    this.held.length = 0;
    this.fallback = { kind: 'accept' };
    this.unknownRecipients.clear();
  }

  /** SMTP_URL for the notebook. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Refuses the next `count` messages with this code (e.g. 451, "try again later"). */
  refuseNext(count: number, code = 451, text = 'Requested action aborted: local error in processing'): void {
    for (let i = 0; i < count; i += 1) this.plan.push({ kind: 'refuse', code, text });
  }

  /** From now on, every message not planned otherwise is answered so (accept again with `{ kind: 'accept' }`). */
  answerAll(answer: SmtpAnswer): void {
    this.fallback = answer;
  }

  /** Accepts every message held without an answer so far (a slow server answering at last). */
  acceptHeld(): void {
    for (const accept of this.held.splice(0)) accept();
    for (const check of [...this.waiters]) check();
  }

  /** The Message-ID of every accepted message. */
  messageIds(): string[] {
    return this.received.map((mail) => mail.messageId ?? '');
  }

  /** Resolves once `count` messages were accepted (or fails after `timeoutMs`). */
  async waitForReceived(count: number, timeoutMs = 20_000): Promise<void> {
    await this.waitUntil(() => this.received.length >= count, timeoutMs, `${count} mails (got ${this.received.length})`);
  }

  /** Resolves once `count` messages' data arrived, whatever the answer (or fails after `timeoutMs`). */
  async waitForDelivered(count: number, timeoutMs = 20_000): Promise<void> {
    await this.waitUntil(() => this.delivered.length >= count, timeoutMs, `${count} messages delivered (got ${this.delivered.length})`);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the SMTP server did not get ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private async answer(raw: Buffer, callback: (error?: Error | null) => void): Promise<void> {
    const parsed = await simpleParser(raw);
    this.delivered.push(parsed.messageId ?? '');
    const answer = this.plan.shift() ?? this.fallback;
    if (answer.kind === 'refuse') {
      callback(Object.assign(new Error(answer.text), { responseCode: answer.code }));
    } else if (answer.kind === 'accept') {
      this.received.push(parsed);
      callback();
    }
    // `stall`: no answer at all; the sender waits until its timeout or its end, or `acceptHeld`.
    if (answer.kind === 'stall')
      this.held.push(() => {
        this.received.push(parsed);
        callback();
      });
    for (const check of [...this.waiters]) check();
  }
}
