/**
 * Live editing: Hocuspocus on the `/collab` websocket. This file builds the instance and mounts it on
 * Fastify; app.ts puts the parts below together as its extensions. The parts, by concern:
 *
 * - connections/  who may open a live document and what each connection carries: the socket limits
 *                 before authentication, admission by access token and document kind, checks again when
 *                 sessions or access change, and how a connection is turned read-only (endWriting).
 * - documents/    what a live document is: the kinds features register (`labnote.<no>`, `template.<no>`)
 *                 and the content snapshots through which the server reads a document's content.
 * - guard/        what an update must pass before Hocuspocus applies it: the size limit, the content
 *                 rules (tried on a shadow copy unless the update only edits text), the catalogue seals.
 * - persistence/  durable documents: each accepted update appended (in group commits) and confirmed only
 *                 once stored; compaction; updates relayed from other server processes.
 * - commands/     how the API acts on open documents on every server process (LiveDocuments): end
 *                 writing, close, check users again; through a command log when there are several.
 * - authors/      who writes: the user behind each Yjs client, and the writers a document kind records.
 *
 * Imports go one way: documents/ needs no other part; connections/ needs documents/; guard/,
 * persistence/ and authors/ need those two; commands/ needs connections/, documents/ and persistence/.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Hocuspocus, type Connection, type Extension } from '@hocuspocus/server';
import type { WebSocket } from 'ws';
import { COLLAB_LIMITS, COLLAB_PATH, ERR } from '@eln/shared';
import { AppError } from '../http/errors.js';
import { recheckConnection, type CollabAuthorization } from './connections/authorization.js';
import type { CollabContext } from './connections/context.js';
import { coalesceWrites } from './connections/coalescedWrites.js';

export type { CollabContext };
import { AddressSlots, boundUnsent, DEFAULT_SOCKET_LIMITS, PreAuthGate, type SocketLimits } from './connections/socketLimits.js';

/** Largest websocket message accepted: big enough for a long note's first sync, small enough to refuse abuse. */
export const COLLAB_MAX_MESSAGE_BYTES = COLLAB_LIMITS.messageBytes;

/** Each socket's pre-authentication limits, found by the request Hocuspocus hands to onAuthenticate. */
const preAuthGates = new WeakMap<Request, PreAuthGate>();

export interface CollabOptions {
  authorization: CollabAuthorization;
  extensions?: Extension[];
}

/** How often open connections must show a valid token again (the provider answers with a fresh one). */
export const SESSION_RECHECK_MS = 60_000;

/**
 * The live-editing layer: a Hocuspocus instance whose connections authenticate with the same access
 * token as the API, and whose documents are opened only through a registered document kind.
 */
export function createCollab(options: CollabOptions): Hocuspocus<CollabContext> {
  const authorize = (token: string, documentName: string) => options.authorization.byToken(token, documentName);
  return new Hocuspocus<CollabContext>({
    name: 'eln-collab',
    quiet: true,
    extensions: [options.authorization, ...(options.extensions ?? [])],
    // Hocuspocus's own bound on what it queues for documents not yet authenticated (its default is
    // 5 MB). It matters for documents opened on an already authenticated socket; a socket with none
    // authenticated meets mountCollab's byte count first (counted on arrival, so set below this).
    maxUnauthenticatedQueueSize: 2 * COLLAB_LIMITS.preAuthBytes,
    async onAuthenticate({ token, documentName, connectionConfig, request }) {
      const { user, access } = await authorize(token, documentName);
      connectionConfig.readOnly = access === 'read';
      preAuthGates.get(request)?.authenticate();
      return { user };
    },
    // Long sessions outlive access tokens: the server asks for the current token now and then, and on
    // each answer checks the session again. A revoked session loses the connection; lost write access
    // (a signed note, a closed project) turns it read-only; a fresh token keeps it going, edits and all.
    // Sign-out, deactivation and membership changes do not wait for this: they check the user's open
    // connections at once (LiveDocuments.recheckUsers), the same way.
    async onTokenSync({ token, documentName, connection }) {
      const user = await recheckConnection(connection, () => authorize(token, documentName));
      return user ? { user } : {};
    },
  });
}

/**
 * Mounts the Hocuspocus instance on the Fastify server's `/collab` websocket route, within the socket
 * limits: an address past its count of open sockets is answered 429 before the upgrade; a socket must
 * authenticate a document within the time and byte budget, or it is closed; a socket whose client does
 * not read what it is sent is closed once the unsent bytes pass their bound.
 */
export function mountCollab(
  app: FastifyInstance,
  hocuspocus: Hocuspocus<CollabContext>,
  limits: SocketLimits = DEFAULT_SOCKET_LIMITS,
): void {
  const slots = new AddressSlots(limits.perAddress);
  const preHandler = async (request: FastifyRequest) => {
    // Only upgrades hold a slot (a plain GET here is answered 404 and holds nothing).
    if (request.ws && !slots.take(request.ip, request.raw.socket)) throw new AppError(ERR.tooManyConnections);
  };
  app.get(COLLAB_PATH, { websocket: true, preHandler }, (socket: WebSocket, request) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const webRequest = new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, { headers });
    const gate = new PreAuthGate(socket, request.raw.socket, limits);
    boundUnsent(socket, limits.unsentBytes);
    coalesceWrites(socket, request.raw.socket);
    preAuthGates.set(webRequest, gate);
    const connection = hocuspocus.handleConnection(socket, webRequest);
    socket.on('message', (data: Buffer) => {
      if (gate.open) connection.handleMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    });
    socket.on('close', (code: number, reason: Buffer) => connection.handleClose({ code, reason: reason.toString() }));
    socket.on('error', (error) => request.log.warn({ err: error }, 'collab socket error'));
  });
}

/** Asks every open connection for its current token, so that onTokenSync checks its session again. */
export function recheckSessions(hocuspocus: Hocuspocus<CollabContext>): void {
  for (const document of hocuspocus.documents.values()) {
    for (const connection of document.getConnections()) connection.requestToken();
  }
}

/**
 * Which connections' turn it is, when an interval is walked in `steps` steps: each connection gets a step
 * when first seen (in turn, so the steps fill evenly) and keeps it, so each is due once per walk. A
 * connection was authorised as it opened, so its step counts only from half a walk after it was first
 * seen: its first check comes half a walk to a walk and a half after it opens. (Counted from the first
 * step instead, connections opened faster than one a step, as tests open them, could come due at once.)
 */
export class RecheckRota<T extends object> {
  private readonly turnOf = new WeakMap<T, { step: number; seenAt: number }>();
  private assigned = 0;
  private walked = 0;

  constructor(private readonly steps: number) {}

  /** Moves to the next step; answers those of `connections` due at it. */
  next(connections: Iterable<T>): T[] {
    this.walked += 1;
    const step = this.walked % this.steps;
    const due: T[] = [];
    for (const connection of connections) {
      let turn = this.turnOf.get(connection);
      if (!turn) this.turnOf.set(connection, (turn = { step: this.assigned++ % this.steps, seenAt: this.walked }));
      if (turn.step === step && this.walked - turn.seenAt >= this.steps / 2) due.push(connection);
    }
    return due;
  }
}

/** The session recheck's interval is walked in this many steps, each asking its share of the connections. */
const RECHECK_STEPS = 60;

/**
 * Checks every open connection's session again once every `everyMs`, a share of them at each of
 * RECHECK_STEPS steps. All at once, a thousand connections' checks (each a few queries) arrived together
 * every minute, took the database pool from the stores that confirm edits, and each connection's
 * keystrokes waited behind its own check.
 */
export function startSessionRechecks(hocuspocus: Hocuspocus<CollabContext>, everyMs: number = SESSION_RECHECK_MS): () => void {
  const rota = new RecheckRota<Connection<CollabContext>>(RECHECK_STEPS);
  const connections = function* () {
    for (const document of hocuspocus.documents.values()) yield* document.getConnections();
  };
  const timer = setInterval(() => {
    for (const connection of rota.next(connections())) connection.requestToken();
  }, everyMs / RECHECK_STEPS);
  timer.unref();
  return () => clearInterval(timer);
}
