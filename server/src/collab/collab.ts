import type { FastifyInstance } from 'fastify';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import type { WebSocket } from 'ws';
import { COLLAB_PATH } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { recheckConnection, type CollabAuthorization } from './authorization.js';

/** Largest websocket message accepted: big enough for a long note's first sync, small enough to refuse abuse. */
export const COLLAB_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface CollabContext {
  /** The connection's user and the session it stands on (live commands find connections by these). */
  user: AuthUser;
  /** When it was admitted, in CollabAuthorization's count of rechecks. */
  admittedAt: number;
}

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
    async onAuthenticate({ token, documentName, connectionConfig }) {
      const { user, access } = await authorize(token, documentName);
      connectionConfig.readOnly = access === 'read';
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

/** Mounts the Hocuspocus instance on the Fastify server's `/collab` websocket route. */
export function mountCollab(app: FastifyInstance, hocuspocus: Hocuspocus<CollabContext>): void {
  app.get(COLLAB_PATH, { websocket: true }, (socket: WebSocket, request) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const webRequest = new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, { headers });
    const connection = hocuspocus.handleConnection(socket, webRequest);
    socket.on('message', (data: Buffer) => connection.handleMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
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

export function startSessionRechecks(hocuspocus: Hocuspocus<CollabContext>, everyMs: number = SESSION_RECHECK_MS): () => void {
  const timer = setInterval(() => recheckSessions(hocuspocus), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
