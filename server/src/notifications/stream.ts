import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { api, NOTIFICATION_LIMITS, type NotificationState } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { TokenService } from '../auth/tokens.js';
import type { Database, Db } from '../db/client.js';
import { NOTIFICATION_CHANNEL, usersOfPayload } from './publish.js';
import { notificationStateOf } from './queries.js';

/** Whether two readings of one person see alike (the rules decide by level and permissions). */
const sameRules = (a: AuthUser, b: AuthUser) => a.level === b.level && JSON.stringify(a.auth) === JSON.stringify(b.auth);

/** People whose state is read at once when many are told of together (a project of 200 closing): the pool has 10 connections. */
const PUSH_CONCURRENCY = 6;

interface OpenStream {
  userNo: number;
  sessionId: string;
  /** The reader as the rules see them, read again whenever their session, user or memberships change (recheck). */
  user: AuthUser;
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
 * session ends, and when the server stops; a comment every NOTIFICATION_LIMITS.heartbeatSeconds keeps
 * proxies from cutting a quiet one. Whatever changes a session, a user or their memberships (sign-out,
 * deactivation, a new level or permission, removal from a project) sends the `recheck-users` live command,
 * on every process: the stream's reader is then read again (its stream closed if the session ended) and
 * sent their state afresh, so what a stream shows follows the rules as they are now.
 */
export class NotificationStreams {
  private readonly byUser = new Map<number, Set<OpenStream>>();
  /** People to send to at the next flush, and whether to read them again first. */
  private pending = new Map<number, { recheck: boolean }>();
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
    const stream: OpenStream = { userNo: user.userNo, sessionId: user.sessionId, user, out, timers: [] };
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
  changed(userNos: readonly number[], recheck = false): void {
    if (this.stopped) return;
    for (const userNo of userNos) {
      if (!this.byUser.has(userNo)) continue;
      this.pending.set(userNo, { recheck: recheck || this.pending.get(userNo)?.recheck === true });
    }
    if (this.pending.size && !this.flushing) this.flushing = this.flush().finally(() => (this.flushing = null));
  }

  /** Sessions, users or memberships of these people changed (live `recheck-users`): their readers are read again and sent afresh. */
  recheck(userNos: readonly number[]): void {
    this.changed(userNos, true);
  }

  private async flush(): Promise<void> {
    // A change told while this flush runs is sent by the next round of the loop.
    while (this.pending.size) {
      const users = [...this.pending];
      this.pending = new Map();
      let next = 0;
      const worker = async () => {
        while (next < users.length) {
          const [userNo, { recheck }] = users[next++]!;
          await this.sendTo(userNo, recheck);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, users.length) }, worker));
    }
  }

  /**
   * Sends one person's streams their state, read as they may see it now (each distinct reader once: the
   * same person's tabs share one); `recheck` reads their sessions again first, closing those that ended.
   */
  private async sendTo(userNo: number, recheck: boolean): Promise<void> {
    const streams = [...(this.byUser.get(userNo) ?? [])];
    try {
      if (recheck) {
        const sessions = new Map<string, AuthUser | null>();
        for (const stream of streams) {
          if (!sessions.has(stream.sessionId)) sessions.set(stream.sessionId, await this.tokens.userOfSession(stream.sessionId));
          const user = sessions.get(stream.sessionId);
          if (user && user.userNo === userNo) stream.user = user;
          else this.close(stream);
        }
      }
      const states = new Map<AuthUser, NotificationState>();
      for (const stream of streams) {
        if (stream.out.writableEnded) continue;
        const known = [...states].find(([user]) => sameRules(user, stream.user))?.[1];
        const state = known ?? (await notificationStateOf(this.db, stream.user));
        if (!known) {
          if (this.checkAnswers) api.notifications.stream.answer.parse(state);
          states.set(stream.user, state);
        }
        this.write(stream, state);
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
