import net from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TCP proxy on loopback between a server process and PostgreSQL or Redis, to inject the faults a
 * network brings: latency on every chunk, a cut (open connections dropped, new ones refused for a
 * while) and a stall (nothing forwarded for a while, as Redis's CLIENT PAUSE does, for this process only).
 */
export class FaultProxy {
  /** Added to every chunk in each direction. */
  delayMs = 0;
  private cutUntil = 0;
  private stalledUntil = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  private constructor(private readonly targetPort: number) {
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(targetPort: number): Promise<FaultProxy> {
    const proxy = new FaultProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Drops every open connection and refuses new ones for `ms`. */
  cut(ms: number): void {
    this.cutUntil = Date.now() + ms;
    for (const socket of this.sockets) socket.destroy();
  }

  /** Forwards nothing for `ms`; what arrives meanwhile is delivered afterwards, in order. */
  stall(ms: number): void {
    this.stalledUntil = Date.now() + ms;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket): void {
    if (Date.now() < this.cutUntil) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => undefined);
    }
    this.pipe(client, upstream);
    this.pipe(upstream, client);
  }

  /** Forwards chunks in order, each after the current delay and any stall. */
  private pipe(from: net.Socket, to: net.Socket): void {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      chain = chain.then(async () => {
        const wait = Math.max(this.delayMs, this.stalledUntil - Date.now());
        if (wait > 0) await sleep(wait);
        if (!to.destroyed) to.write(chunk);
      });
    });
  }
}
