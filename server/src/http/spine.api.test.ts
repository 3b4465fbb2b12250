import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, defineCall, ERR } from '@eln/shared';
import { z } from 'zod';
import { DEFAULT_BODY_LIMIT } from '../app.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { assertRouteTableBound, bindCalls, defineRoute, registerCalls } from './route.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // A call that fails the way a broken query would, to prove nothing of it leaks.
  server.app.post('/server/v1/testing/boom', async () => {
    throw new Error('relation "users" does not exist: SELECT password_hash FROM users WHERE user_id = $1');
  });
  // A call that shows its handler what it received: the validated body, and what the request still holds.
  defineRoute(server.app, server.services, {
    path: '/v1/testing/echo',
    access: 'public',
    body: z.strictObject({ name: z.string().trim() }),
    handler: async ({ body, request }) => ({ body, rawStillHeld: request.body !== undefined }),
  });
  // Two calls bound from route-table entries of the test's own: one answers as its schema says, one not.
  registerCalls(
    server.app,
    server.services,
    bindCalls(TESTING_CALLS, {
      true: async () => ({ count: 1 }),
      false: async () => ({ count: 'one' }) as unknown as { count: number },
    }),
  );
});

const answerCall = (path: `/v1/${string}`) =>
  defineCall({
    path,
    auth: 'public',
    kind: 'query',
    summary: 'A call of the spine test.',
    request: z.strictObject({}),
    answer: z.strictObject({ count: z.number() }),
    errors: [],
  });
const TESTING_CALLS = { true: answerCall('/v1/testing/answer/true'), false: answerCall('/v1/testing/answer/false') };
afterAll(async () => {
  await server?.stop();
});

describe('the API spine', () => {
  it('answers an unexpected failure as 9999 without stack, SQL or driver text', async () => {
    const result = await server.call('/v1/testing/boom', {});
    expect(result.http).toBe(500);
    expect(result.body).toEqual({ status: ERR.unexpected, message: 'An unexpected error occurred.', data: null });
    expect(JSON.stringify(result.body)).not.toMatch(/SELECT|relation|stack|at .*\.ts/);
  });

  it('hands the handler the validated body and lets the raw parse go', async () => {
    const result = await server.call<{ body: { name: string }; rawStillHeld: boolean }>('/v1/testing/echo', { name: '  Kim  ' });
    expect(result.body.status).toBe('0000');
    expect(result.body.data).toEqual({ body: { name: 'Kim' }, rawStillHeld: false });
  });

  it("checks answers against their route-table schema in the tests' servers: one that differs fails as unexpected", async () => {
    expect(server.config.checkAnswers).toBe(true);
    const kept = await server.call(TESTING_CALLS.true, {});
    expect(kept.body).toMatchObject({ status: '0000', data: { count: 1 } });
    const differs = await server.call(TESTING_CALLS.false, {});
    expect(differs.http).toBe(500);
    expect(differs.body.status).toBe(ERR.unexpected);
  });

  it('has a route for every call of the route table, and says which one lacks it on a server without', async () => {
    expect(() => assertRouteTableBound(server.app)).not.toThrow();
    const bare = (await import('fastify')).default();
    expect(() => assertRouteTableBound(bare)).toThrow(api.projects.list.path);
  });

  it('refuses a body over the limit with 413', async () => {
    const result = await server.call(api.auth.signIn, undefined, {
      raw: JSON.stringify({ userId: 'a@b.cd', password: 'x'.repeat(DEFAULT_BODY_LIMIT) }),
    });
    expect(result.http).toBe(413);
    expect(result.body.status).toBe(ERR.tooLarge);
  });

  it('refuses JSON that does not parse, and prototype-poisoning keys, with 400 9004', async () => {
    for (const raw of ['{"userId": ', 'not json', '{"__proto__": {"level": 10}, "userId": "a@b.cd", "password": "x"}']) {
      const result = await server.call(api.auth.signIn, undefined, { raw });
      expect(result.http, raw).toBe(400);
      expect(result.body.status).toBe(ERR.malformed);
    }
  });

  it('refuses bodies that are not JSON with 415', async () => {
    const result = await server.call(api.auth.signIn, undefined, {
      raw: 'userId=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(result.http).toBe(415);
    expect(result.body.status).toBe(ERR.unsupportedMediaType);
  });

  it('refuses a JSON body that is not an object', async () => {
    const result = await server.call(api.auth.signIn, undefined, { raw: '[1,2]' });
    expect(result.http).toBe(400);
    expect(result.body.status).toBe(ERR.validation);
  });

  it('answers unknown calls and other methods with 404 9005 in the envelope', async () => {
    const unknown = await server.call('/v1/no/such/call', {});
    expect(unknown.http).toBe(404);
    expect(unknown.body.status).toBe(ERR.unknownCall);
    const get = await server.app.inject({ method: 'GET', url: `/server${api.auth.signIn.path}` });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toMatchObject({ status: ERR.unknownCall });
  });

  it('sends security headers with a strict content security policy', async () => {
    const result = await server.call(api.auth.flags, {});
    const csp = String(result.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(result.headers['x-content-type-options']).toBe('nosniff');
    expect(result.headers['referrer-policy']).toBe('no-referrer');
  });

  it('has a message in every language for every catalogue code, and answers in the asked language', async () => {
    const { ERROR_CATALOGUE, errorMessage } = await import('@eln/shared');
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^\d{4}$/);
      const messages = (['ko', 'en', 'ja'] as const).map((language) => errorMessage(code, language));
      for (const message of messages) expect(message.length, code).toBeGreaterThan(3);
      // A language without its own message would be said in English: every language is really given.
      expect(new Set(messages).size, code).toBe(3);
    }
    const answer = await server.call(api.auth.signIn, { userId: 'nobody@lab.test', password: 'wrong-password-1' }, { language: 'ja' });
    expect(answer.body.message).toBe('IDまたはパスワードが正しくありません。');
  });
});
