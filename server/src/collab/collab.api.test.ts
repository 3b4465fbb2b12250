import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { api, COLLAB_PATH, COLLAB_REFUSALS, type SignInAnswer } from '@eln/shared';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { claimsOf, forgeJwt, serverSecret } from '../testing/jwt.js';
import { revokeSession } from '../auth/sessions.js';
import { recheckSessions } from './collab.js';
import type { DocumentKind } from './documents/documentKinds.js';

/** A document family for tests only: `scratch.open` is writable, `scratch.readonly` read-only, others closed. */
let switchable: 'write' | 'read' = 'write';
const scratchKind: DocumentKind = {
  prefix: 'scratch',
  authorize: async (_user, id) => (id === 'open' ? 'write' : id === 'readonly' ? 'read' : id === 'switchable' ? switchable : null),
};

let server: TestServer;
let url: string;
let session: SignInAnswer;
const providers: HocuspocusProvider[] = [];
const sockets: HocuspocusProviderWebsocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ documentKinds: [scratchKind] });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  url = `${address.replace('http', 'ws')}${COLLAB_PATH}`;
  session = await server.signIn(server.admin.userId, server.admin.password);
});
afterAll(async () => {
  for (const provider of providers) provider.destroy();
  for (const socket of sockets) socket.destroy();
  await server?.stop();
});

type Outcome = { kind: 'synced'; provider: HocuspocusProvider; doc: Y.Doc } | { kind: 'refused'; reason: string };

/** Connects a real provider and waits for the first sync or a refusal. */
function connect(name: string, token: string): Promise<Outcome> {
  const doc = new Y.Doc();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer for ${name}`)), 10_000);
    // In Node the socket needs ws as its WebSocket; a provider given its socket must attach to it.
    const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
    sockets.push(socket);
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document: doc,
      token,
      onSynced: () => {
        clearTimeout(timer);
        resolve({ kind: 'synced', provider, doc });
      },
      onAuthenticationFailed: ({ reason }) => {
        clearTimeout(timer);
        provider.destroy();
        resolve({ kind: 'refused', reason });
      },
    });
    providers.push(provider);
    provider.attach();
  });
}

async function eventually(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the /collab websocket', () => {
  it('lets a signed-in user open a document and exchange edits with another', async () => {
    const a = await connect('scratch.open', session.accessToken);
    const b = await connect('scratch.open', session.accessToken);
    if (a.kind !== 'synced' || b.kind !== 'synced') throw new Error('both should sync');
    a.doc.getText('t').insert(0, 'hello from A');
    await eventually(() => b.doc.getText('t').toString() === 'hello from A', 'B to see A’s edit');
  });

  it('refuses forged, expired and revoked tokens, and refresh tokens', async () => {
    const claims = claimsOf(session.accessToken);
    const secret = await serverSecret(server.database.db);
    const now = Math.floor(Date.now() / 1000);
    const member = await server.createUser();
    const revoked = await server.signIn(member.userId, member.password);
    await server.call(api.auth.signOut, {}, { token: revoked.accessToken });
    const tokens = {
      garbage: 'not-a-token',
      wrongKey: forgeJwt(claims, { secret: 'somebody-elses-secret-key-material' }),
      algNone: forgeJwt(claims, { alg: 'none' }),
      expired: forgeJwt({ ...claims, iat: now - 7200, exp: now - 10 }, { secret }),
      revoked: revoked.accessToken,
      refreshToken: session.refreshToken,
    };
    for (const [label, token] of Object.entries(tokens)) {
      const outcome = await connect('scratch.open', token);
      expect(outcome, label).toEqual({ kind: 'refused', reason: COLLAB_REFUSALS.session });
    }
  });

  it('refuses documents no feature owns and documents the user may not open', async () => {
    expect(await connect('unknown.1', session.accessToken)).toEqual({ kind: 'refused', reason: COLLAB_REFUSALS.document });
    expect(await connect('scratch.closed', session.accessToken)).toEqual({ kind: 'refused', reason: COLLAB_REFUSALS.forbidden });
  });

  it('keeps a read-only connection’s edits out of the server’s document and away from other clients', async () => {
    const reader = await connect('scratch.readonly', session.accessToken);
    const other = await connect('scratch.readonly', session.accessToken);
    if (reader.kind !== 'synced' || other.kind !== 'synced') throw new Error('both should sync');
    reader.doc.getText('t').insert(0, 'should not land');
    // The server handles one connection's messages in order: once an awareness change sent after the
    // edit has reached the other client, the edit has been dealt with too.
    reader.provider.setAwarenessField('marker', 'after-edit');
    await eventually(
      () => [...(other.provider.awareness?.getStates().values() ?? [])].some((state) => state.marker === 'after-edit'),
      'the marker to arrive',
    );
    const serverDoc = server.collab.documents.get('scratch.readonly');
    expect(serverDoc?.getText('t').toString()).toBe('');
    expect(other.doc.getText('t').toString()).toBe('');
  });
});

describe('long-lived connections', () => {
  async function connectWithTokenFunction(name: string, token: () => string) {
    const doc = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
    sockets.push(socket);
    const events: string[] = [];
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document: doc,
      token,
      onClose: () => void events.push('close'),
      onStateless: ({ payload }) => void events.push(payload),
    });
    providers.push(provider);
    provider.attach();
    await eventually(() => provider.isSynced, 'sync');
    return { doc, provider, events };
  }

  it('keep going on a fresh token, and lose the connection once the token or session is no longer good', async () => {
    const member = await server.createUser();
    let session = await server.signIn(member.userId, member.password);
    let current = session.accessToken;
    const writer = await connectWithTokenFunction('scratch.open', () => current);
    const watcher = await connect('scratch.open', session.accessToken);
    if (watcher.kind !== 'synced') throw new Error('watcher should sync');

    const refreshed = await server.call(api.auth.refresh, { refreshToken: session.refreshToken });
    session = refreshed.body.data;
    current = session.accessToken;
    recheckSessions(server.collab);
    writer.doc.getText('t').insert(0, 'still here ');
    await eventually(() => watcher.doc.getText('t').toString().includes('still here'), 'the edit after a token refresh');
    expect(writer.events).not.toContain('close');

    // An expired token for the same session ends the connection at the next check.
    const now = Math.floor(Date.now() / 1000);
    current = forgeJwt(
      { ...claimsOf(session.accessToken), iat: now - 3600, exp: now - 5 },
      { secret: await serverSecret(server.database.db) },
    );
    recheckSessions(server.collab);
    await eventually(() => writer.events.includes('close'), 'the connection to close');
  });

  it('drop the connections of a session that ended, at the next check', async () => {
    const member = await server.createUser();
    const session = await server.signIn(member.userId, member.password);
    const writer = await connectWithTokenFunction('scratch.open', () => session.accessToken);
    // Ended in the database alone: sign-out would close the connection at once (liveAccess.api.test.ts).
    await revokeSession(server.database.db, String(claimsOf(session.accessToken).sid), 'ended elsewhere');
    recheckSessions(server.collab);
    await eventually(() => writer.events.includes('close'), 'the connection to close');
  });

  it('turn read-only when write access ends, and the client is told', async () => {
    switchable = 'write';
    const writer = await connectWithTokenFunction('scratch.switchable', () => session.accessToken);
    const observer = await connect('scratch.switchable', session.accessToken);
    if (observer.kind !== 'synced') throw new Error('observer should sync');
    writer.doc.getText('t').insert(0, 'before');
    await eventually(() => observer.doc.getText('t').toString() === 'before', 'the first edit');
    switchable = 'read';
    recheckSessions(server.collab);
    await eventually(() => writer.events.some((e) => e.includes('hold-ended')), 'the hold-ended message');
    writer.doc.getText('t').insert(0, 'after ');
    writer.provider.setAwarenessField('marker', 'sent-after');
    await eventually(() => [...(observer.provider.awareness?.getStates().values() ?? [])].some((s) => s.marker === 'sent-after'), 'marker');
    expect(server.collab.documents.get('scratch.switchable')?.getText('t').toString()).toBe('before');
  });
});
