import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { allCalls, API_BASE, ERR, isErrorCode, SUCCESS, type SignInAnswer } from '@eln/shared';
import { rawRows } from '../db/client.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { definedRoutes, type Access, type DefinedRoute } from './route.js';

/**
 * Property-based fuzzing of every API call. Bodies are derived from each call's shared zod schema (a
 * plausible body of the right shape) and then broken: a field replaced by a bad value (wrong type, NUL,
 * lone surrogate, huge or deeply nested value, impossible date, number out of range), an unknown field
 * (keys with bad text too), a field removed, or the whole body replaced. Every answer must be a 4xx or a
 * success in the envelope (never a 500), and a refused call must write nothing.
 *
 * "Writes nothing": no table changes except two kinds of bookkeeping a refusal legitimately does: the
 * sign-in throttle (failed attempts are counted) and audit records of refusals an inspector must see
 * (REFUSAL_AUDITS: failed sign-ins and signings, refused sign-ins, a spent refresh token presented again).
 *
 * Bounded: a fixed seed and a fixed number of bodies per call and caller.
 */
const SEED = 20_261_123;
const RUNS_PER_CALLER = 10;

/** Calls whose refusal is itself an event of the audit trail. */
const REFUSAL_AUDITS = new Set(['user.signInFailed', 'user.signInRefused', 'signature.failed', 'user.refreshReuse']);
/** Tables a refusal may change (see above); every other table is fingerprinted before and after. */
const BOOKKEEPING_TABLES = new Set(['sign_in_throttle', 'audit_log']);

let server: TestServer;
const tokens: Record<Exclude<Access, 'public'>, string> = { user: '', admin: '' };
let member: { userId: string; password: string };
let tables: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  // Export jobs a fuzzed body queued, and the search index and file texts of what an accepted call changed, would
  // otherwise be worked on in the background and change tables between the fingerprints of a later, refused call.
  await server.services.exportJobs.stop();
  await server.services.searchIndexer.stop();
  await server.services.fileTexts.stop();
  member = await server.createUser({ name: 'Fuzz Member', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } });
  await signInAgain('admin');
  await signInAgain('user');
  const rows = await rawRows<{ name: string }>(
    server.database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  tables = rows.map((r) => r.name).filter((name) => !BOOKKEEPING_TABLES.has(name) && !name.startsWith('__drizzle'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function signInAgain(who: Exclude<Access, 'public'>): Promise<void> {
  const answer: SignInAnswer = await server.signIn(
    who === 'admin' ? server.admin.userId : member.userId,
    who === 'admin' ? server.admin.password : member.password,
  );
  tokens[who] = answer.accessToken;
}

/* ---------- Bodies derived from the zod schemas ---------- */

interface ZodDefinition {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
}

const definitionOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDefinition } })._zod.def;

/** Text a real client sends in some field somewhere, so that derived bodies often get past the first check. */
const PLAUSIBLE_TEXT = [
  '',
  'x',
  'admin@eln.local',
  'fuzz@lab.test',
  '010-1234-5678',
  '2026-01-01',
  'a-long-enough-password',
  'D1',
  'user',
  'title',
  'T',
];

/** A plausible value for a schema: the right shape, not necessarily valid. */
function plausible(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = definitionOf(schema);
  if (depth > 6) return fc.constant(null);
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      return fc.record(Object.fromEntries(Object.entries(shape).map(([key, inner]) => [key, plausible(inner, depth + 1)])), {
        requiredKeys: [],
      });
    }
    case 'string':
      return fc.oneof(fc.constantFrom(...PLAUSIBLE_TEXT), fc.string({ maxLength: 40 }));
    case 'number':
    case 'int':
      return fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer());
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { none: 'none' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType ? fc.option(plausible(def.innerType, depth + 1), { nil: undefined }) : fc.constant(undefined);
    case 'array':
      return def.element ? fc.array(plausible(def.element, depth + 1), { maxLength: 3 }) : fc.constant([]);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => plausible(option, depth + 1)));
    case 'intersection':
      return def.left ? plausible(def.left, depth + 1) : fc.constant({});
    case 'pipe':
      return def.in ? plausible(def.in, depth + 1) : fc.constant(null);
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

const deepNesting = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = i % 2 ? [value] : { deeper: value };
  return value;
};

/** Values no call should accept where it expects something else, and none should answer with a 500. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDC00y',
    '\uDBFF\uDBFF',
    '\uFFFD',
    '😀',
    'e\u0301',
    '\u202Eevil',
    '<script>x</script>',
    "'; drop table users; --",
  ),
  fc.constantFrom('2026-02-30', '9999-99-99', '0000-01-01', '2026-13-01', '2026-1-1', '-2026-01-01', '20260101', '2026-02-29T00:00:00Z'),
  fc.constantFrom('%', '_', '\\', '%_\\', '=HYPERLINK("http://x")', '@x.yz', 'a@b', 'labnote.01'),
  fc.constantFrom('x'.repeat(70_000), '가'.repeat(30_000)),
  fc.constant(deepNesting(200)),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000`),
  fc.integer(),
  fc.double(),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.object({ maxDepth: 2 }),
);

const badKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('unknown', 'k\u0000', '\uD800', '', 'constructor', 'toString', 'level', 'userNo'),
  fc.string({ maxLength: 10 }),
);

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'remove'; at: number }
  | { kind: 'whole'; value: unknown }
  | { kind: 'none' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: badValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), key: badKey, value: badValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: badValue }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);

/** Every place in a JSON value (object fields and array items, at any depth), parents first. */
function placesOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (!value || typeof value !== 'object') return [];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return children.flatMap(([key, inner]) => [[...path, key], ...placesOf(inner, [...path, key])]);
}

function applyMutation(body: unknown, change: Mutation): unknown {
  if (change.kind === 'none') return body;
  if (change.kind === 'whole') return change.value;
  const copy = structuredClone(body) as Record<string, unknown>;
  if (change.kind === 'add') {
    Object.defineProperty(copy, change.key, { value: change.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const places = placesOf(copy);
  if (places.length === 0) return change.kind === 'replace' ? change.value : copy;
  const path = places[change.at % places.length]!;
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy) as Record<
    string | number,
    unknown
  >;
  const last = path.at(-1)!;
  if (change.kind === 'replace') parent[last] = change.value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return copy;
}

/* ---------- Calling and checking ---------- */

/** A fingerprint of every table but the bookkeeping ones, in one query: equal before and after means nothing was written. */
async function fingerprint(): Promise<string> {
  const parts = tables.map(
    (name) => sql`(select coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from ${sql.identifier(name)} t)`,
  );
  const [row] = await rawRows<{ f: string }>(server.database.db, sql`select concat_ws('|', ${sql.join(parts, sql`, `)}) as f`);
  return row?.f ?? '';
}

async function lastAuditSeq(): Promise<number> {
  const [row] = await rawRows<{ seq: string | null }>(server.database.db, sql`select max(seq) as seq from audit_log`);
  return Number(row?.seq ?? 0);
}

async function auditActionsAfter(seq: number): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(server.database.db, sql`select action from audit_log where seq > ${seq} order by seq`);
  return rows.map((r) => r.action);
}

interface Answer {
  http: number;
  contentType: string;
  body: string;
}

/** Calls whose success is a stream of events that ends only when its caller goes (the bell's). */
const STREAMS = new Set(allCalls().flatMap((spec) => (spec.answerBody === 'stream' ? [`${API_BASE}${spec.path}`] : [])));

async function send(url: string, payload: string, token: string | null): Promise<Answer> {
  const streamed = STREAMS.has(url);
  const response = await server.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
    payloadAsStream: streamed,
  });
  const contentType = String(response.headers['content-type'] ?? '');
  if (!streamed) return { http: response.statusCode, contentType, body: response.body };
  // A stream that opened is left at its head; a refusal is read whole.
  const stream = response.stream();
  if (contentType.startsWith('text/event-stream')) {
    stream.destroy();
    return { http: response.statusCode, contentType, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { http: response.statusCode, contentType, body: Buffer.concat(chunks).toString('utf8') };
}

/** Never a 500; always the envelope (the CSV export answers a file, the bell's stream its events, when they succeed). */
function checkAnswer(answer: Answer, context: string): { status: string } {
  expect(answer.http, context).toBeLessThan(500);
  if (answer.http === 200 && answer.contentType.startsWith('text/csv')) return { status: SUCCESS };
  if (answer.http === 200 && answer.contentType.startsWith('text/event-stream')) return { status: SUCCESS };
  expect(answer.contentType, context).toContain('application/json');
  const envelope = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(envelope).sort(), context).toEqual(['data', 'message', 'status']);
  expect(typeof envelope.message === 'string' && envelope.message.length > 0, context).toBe(true);
  expect(envelope.status === SUCCESS || isErrorCode(envelope.status), context).toBe(true);
  expect(answer.http === 200, context).toBe(envelope.status === SUCCESS);
  return { status: String(envelope.status) };
}

type Caller = Access;

async function fuzzCall(route: Pick<DefinedRoute, 'path' | 'body'>, caller: Caller): Promise<void> {
  const bodies = fc.tuple(plausible(route.body), mutation).map(([body, change]) => applyMutation(body, change));
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const payload = JSON.stringify(body) ?? 'null';
      const context = `${route.path} as ${caller}: ${payload.slice(0, 300)}`;
      const beforeTables = await fingerprint();
      const beforeSeq = await lastAuditSeq();
      const answer = await send(`${API_BASE}${route.path}`, payload, caller === 'public' ? null : tokens[caller]);
      const { status } = checkAnswer(answer, context);
      if (status === ERR.sessionEnded && caller !== 'public') {
        // The body signed this caller out (a valid sign-out): sign in again for the next body.
        await signInAgain(caller);
        return;
      }
      if (status === SUCCESS) return;
      expect(await fingerprint(), `refused call changed a table: ${context}`).toBe(beforeTables);
      const audited = await auditActionsAfter(beforeSeq);
      expect(
        audited.filter((action) => !REFUSAL_AUDITS.has(action)),
        `refused call audited: ${context}`,
      ).toEqual([]);
    }),
    { seed: SEED, numRuns: RUNS_PER_CALLER, endOnFailure: true },
  );
}

/** Who calls a route: anyone for public calls; a member and an administrator for the others. */
const callersOf = (access: Access): Caller[] =>
  access === 'public' ? ['public', 'user'] : access === 'user' ? ['user', 'admin'] : ['user', 'admin'];

describe('every API call, fuzzed with bad input', () => {
  it('knows every call the server answers: each is declared from the route table (uploads too, fuzzed with JSON they must refuse cleanly)', () => {
    const declared = new Set(definedRoutes(server.app).map((route) => `${API_BASE}${route.path}`));
    const served = server.apiRoutes.filter((route) => route.method === 'POST').map((route) => route.url);
    expect(served.length).toBeGreaterThan(40);
    const undeclared = served.filter((url) => !declared.has(url));
    expect(undeclared).toEqual([]);
  });

  it('answers every call with a 4xx or a success in the envelope, and a refused call writes nothing', async () => {
    const routes = definedRoutes(server.app);
    for (const route of routes) {
      for (const caller of callersOf(route.access)) await fuzzCall(route, caller);
    }
  }, 240_000);
});
