import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';

/** Milliseconds of `process.hrtime` (CLOCK_MONOTONIC): one clock for every process on the machine. */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Every child answers `error` when a request fails, and `closed` before it exits. */
type Answer = { type: string } | { type: 'error'; message: string } | { type: 'closed' };

/**
 * A bench helper process forked apart from the servers, so that its CPU (simulated editors, block lists)
 * never counts as server time; driven by messages, each request answered by one message.
 */
export class ForkedHelper<Request extends { type: string }, Reply extends Answer> {
  private readonly child: ChildProcess;
  private readonly inbox: Reply[] = [];
  private waiter: (() => void) | null = null;
  private exited: Error | null = null;

  constructor(modulePath: string, niceness = 0, nodeFlags: string[] = []) {
    // Only tsx and the flags given: none of this process's flags (a --cpu-prof of the server) applies to the helper.
    this.child = fork(modulePath, [], { execArgv: ['--import', 'tsx', ...nodeFlags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    if (niceness) setPriority(this.child.pid!, niceness);
    this.child.on('message', (message: Reply) => {
      this.inbox.push(message);
      this.waiter?.();
    });
    this.child.on('exit', (code) => {
      this.exited = new Error(`a bench helper process exited (${code})`);
      this.waiter?.();
    });
  }

  /** The next answer, which must be of `type` (an `error` answer throws with the helper's stack). */
  async next<T extends Reply['type']>(type: T): Promise<Extract<Reply, { type: T }>> {
    for (;;) {
      const message = this.inbox.shift();
      if (message?.type === 'error') throw new Error(`bench helper: ${(message as { message: string }).message}`);
      if (message) {
        if (message.type !== type) throw new Error(`bench helper answered ${message.type}, expected ${type}`);
        return message as Extract<Reply, { type: T }>;
      }
      if (this.exited) throw this.exited;
      await new Promise<void>((resolve) => (this.waiter = resolve));
      this.waiter = null;
    }
  }

  send(message: Request): void {
    this.child.send(message);
  }

  /** Sends `request` and waits for its answer of `type`. */
  async ask<T extends Reply['type']>(request: Request, type: T): Promise<Extract<Reply, { type: T }>> {
    this.send(request);
    return this.next(type);
  }

  /** Asks the helper to close (`closing`, answered `closed`) and waits until it has exited. */
  async close(closing: Request): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once('exit', resolve));
    await this.ask(closing, 'closed');
    await exit;
  }

  kill(): void {
    if (!this.exited) this.child.kill();
  }
}

/**
 * The child's side: answers each request with what `handle` returns, a failure with `error`; the
 * `closing` request runs `handle` too, then `closed` is sent and the process lets go of its parent.
 */
export function answerParent<Request extends { type: string }, Reply extends Answer>(
  closing: Request['type'],
  handle: (request: Request) => Promise<Reply | null>,
): void {
  const send = (message: Answer) => process.send?.(message);
  process.on('message', (request: Request) => {
    void (async () => {
      try {
        const reply = await handle(request);
        if (request.type === closing) {
          send({ type: 'closed' });
          process.disconnect();
        } else if (reply) send(reply);
      } catch (error) {
        send({ type: 'error', message: (error as Error).stack ?? String(error) });
      }
    })();
  });
}
