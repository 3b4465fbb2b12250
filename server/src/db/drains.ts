/**
 * Runs a queue's drain one pass at a time: a kick while a pass runs asks for one more pass after it
 * (work queued meanwhile may have been missed by the pass), never for two at once.
 */
export class Drains {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Takes kicks (again, after `stop`), one now and one every `everyMs`. */
  start(everyMs: number): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
    this.kick();
  }

  /** Takes no more kicks; resolves once the pass under way (if any) has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    await this.idle();
  }

  /** Resolves when no pass is running or asked for. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
