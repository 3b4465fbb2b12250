import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { api, NOTIFICATION_LIMITS, type NotificationState } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { TokenService } from '../auth/tokens.js';
import type { Database, Db } from '../db/client.js';
import { NOTIFICATION_CHANNEL, usersOfPayload } from './publish.js';
import { notificationStateOf } from './queries.js';

/** People whose state is read at once when many are told of together (a project of 200 closing): the pool has 10 connections. */
const PUSH_CONCURRENCY = 6;

interface OpenStream {
  userNo: number;
  sessionId: string;
  out: PassThrough;
  timers: NodeJS.Timeout[];
}

/**
 * The bell's live updates: each signed-in tab holds one stream (server-sent events over the call
 * `api.notifications.stream`), and this process tells its streams what changed. A change to someone's
 * notifications is told by `pg_notify` in the change's own transaction (publish.ts), so it reaches every
 * server process when, and only if, it commits; each process then reads, for the people it holds streams
 * of, the unread count and newest notification as they may see them now, and sends them.
 *
 * A stream ends when its access token expires (the client opens a new one with its fresh token), when its
 * session ends (sign-out, deactivation: told by the `recheck-users` live commands, and checked again at
 * every send), and when the server stops; a comment every NOTIFICATION_LIMITS.heartbeatSeconds keeps
 * proxies from cutting a quiet one.
 */
export class NotificationStreams {
  private readonly byUser = new Map<number, Set<OpenStream>>();
  /** People to send to at the next flush. */
  private pending = new Set<number>();
  private flushing: Promise<void> | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly database: Pick<Database, 'listen'>,
    private readonly tokens: TokenService,
    private readonly log: FastifyBaseLogger,
    /** Check every state sent against the call's answer schema (the tests' servers). */
    private readonly checkAnswers = false,
  ) {}

  /** Listens for changes; (re)starting to listen sends every open stream its state, for what was told meanwhile. */
  async start(): Promise<void> {
    this.stopListening = await this.database.listen(
      NOTIFICATION_CHANNEL,
      (payload) => this.changed(usersOfPayload(payload)),
      () => this.changed([...this.byUser.keys()]),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.stopListening?.().catch(() => undefined);
    for (const streams of this.byUser.values()) for (const stream of streams) this.close(stream);
    await this.flushing;
  }

  /** How many streams this process holds (tests, the bench). */
  get openCount(): number {
    let n = 0;
    for (const streams of this.byUser.values()) n += streams.size;
    return n;
  }

  /**
   * Answers a stream call: the event stream, sent the current state at once and after every change. The
   * caller and their token are already authenticated.
   */
  open(request: FastifyRequest, reply: FastifyReply, user: AuthUser): FastifyReply {
    const header = request.headers.authorization ?? '';
    const expiresAt = this.tokens.expiryOf(header.slice('Bearer '.length).trim()) ?? Date.now();
    const out = new PassThrough();
    const stream: OpenStream = { userNo: user.userNo, sessionId: user.sessionId, out, timers: [] };
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), NOTIFICATION_LIMITS.heartbeatSeconds * 1000);
    const expiry = setTimeout(() => this.close(stream), Math.max(0, expiresAt - Date.now()));
    stream.timers.push(heartbeat, expiry);
    for (const timer of stream.timers) timer.unref();
    // The answer's close, not the request's: a request closes once its body is read.
    reply.raw.once('close', () => this.close(stream));
    const streams = this.byUser.get(user.userNo) ?? new Set<OpenStream>();
    streams.add(stream);
    this.byUser.set(user.userNo, streams);
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      // nginx and similar proxies pass each event on at once rather than buffering the answer.
      .header('x-accel-buffering', 'no');
    // Fastify sends the headers as soon as the stream is handed over; the first event follows.
    void reply.send(out);
    this.changed([user.userNo]);
    return reply;
  }

  /** These people's notifications changed: their streams here are sent their state (several changes at once, one send). */
  changed(userNos: readonly number[]): void {
    if (this.stopped) return;
    for (const userNo of userNos) if (this.byUser.has(userNo)) this.pending.add(userNo);
    if (this.pending.size && !this.flushing) this.flushing = this.flush().finally(() => (this.flushing = null));
  }

  /** Sessions, users or memberships of these people changed (live `recheck-users`): streams are checked again and sent afresh. */
  recheck(userNos: readonly number[]): void {
    this.changed(userNos);
  }

  private async flush(): Promise<void> {
    // A change told while this flush runs is sent by the next round of the loop.
    while (this.pending.size) {
      const users = [...this.pending];
      this.pending = new Set();
      let next = 0;
      const worker = async () => {
        while (next < users.length) await this.sendTo(users[next++]!);
      };
      await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, users.length) }, worker));
    }
  }

  /** Sends one person's streams their state, read as they may see it now; a stream whose session ended is closed instead. */
  private async sendTo(userNo: number): Promise<void> {
    const streams = [...(this.byUser.get(userNo) ?? [])];
    if (!streams.length) return;
    try {
      const sessions = new Map<string, AuthUser | null>();
      for (const stream of streams) {
        if (!sessions.has(stream.sessionId)) sessions.set(stream.sessionId, await this.tokens.userOfSession(stream.sessionId));
      }
      const reader = [...sessions.values()].find((user): user is AuthUser => user !== null && user.userNo === userNo);
      const state = reader ? await notificationStateOf(this.db, reader) : null;
      if (state && this.checkAnswers) api.notifications.stream.answer.parse(state);
      for (const stream of streams) {
        const user = sessions.get(stream.sessionId);
        if (!state || !user || user.userNo !== userNo) this.close(stream);
        else this.write(stream, state);
      }
    } catch (error) {
      // The next change sends again; the stream stays open meanwhile.
      this.log.warn({ err: error, userNo }, 'notification stream: state not sent');
    }
  }

  private write(stream: OpenStream, state: NotificationState): void {
    if (stream.out.writableEnded) return;
    stream.out.write(`event: state\ndata: ${JSON.stringify(state)}\n\n`);
  }

  private close(stream: OpenStream): void {
    for (const timer of stream.timers) clearTimeout(timer);
    stream.timers = [];
    if (!stream.out.writableEnded) stream.out.end();
    const streams = this.byUser.get(stream.userNo);
    if (!streams?.delete(stream)) return;
    if (!streams.size) this.byUser.delete(stream.userNo);
  }
}
