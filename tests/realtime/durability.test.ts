import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { api, CONTENT_FIELD, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import {
  appendParagraph,
  connectWriter,
  eventually,
  paragraphTexts,
  plainText,
  roundTrip,
  type LiveClient,
} from '../../server/src/testing/live.js';
import { ServerProcess } from './serverProcess.js';

/**
 * The durability promise, tested the hard way: writers add tagged paragraphs, delete them, and make
 * them bold and plain again while the server process is killed with SIGKILL at random moments. After
 * every restart, a fresh client must show every change that was confirmed durable (a paragraph added
 * exactly once, a deletion gone, a format as set) unless a later change of the same paragraph replaced
 * it, and the writers' own copies must converge with it.
 */
const KILLS = Number(process.env.ELN_DURABILITY_KILLS ?? 10);

let server: ServerProcess;
let userIds: string[] = [];
let documentName: string;

const call = <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => server.call(spec, body, token);

beforeAll(async () => {
  server = await ServerProcess.create();
  await server.start();
  const admin = await call(api.auth.signIn, { userId: 'admin@eln.local', password: ServerProcess.adminPassword });
  userIds = [];
  for (let i = 0; i < 10; i += 1) {
    const userId = `typist${i}@durability.test`;
    await call(
      api.users.create,
      { userId, name: `Typist ${i}`, password: 'typist-password-1', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
      admin.accessToken,
    );
    userIds.push(userId);
  }
  const tokens = await signInTypists(1);
  const { projectNo } = await call(
    api.projects.create,
    { title: 'Durability', signatureList: { department: '', user: userIds.join(',') } },
    tokens[0],
  );
  const { labNoteNo } = await call(api.notes.create, { projectNo, title: 'Crash test' }, tokens[0]);
  documentName = noteDocumentName(labNoteNo);
}, 120_000);

/**
 * Access tokens of the typists, fresh. Sessions outlive the restarts (tokens are checked against the
 * database, which survives), but not their 15 minutes: beside the browser suite the crash test can run
 * longer than that, and tokens from the start would be refused in its later rounds.
 */
async function signInTypists(count = userIds.length): Promise<string[]> {
  const tokens: string[] = [];
  for (const userId of userIds.slice(0, count))
    tokens.push((await call(api.auth.signIn, { userId, password: 'typist-password-1' })).accessToken);
  return tokens;
}

afterAll(async () => {
  await server?.dispose();
});

/** What a change leaves of its paragraph. */
type ParagraphState = 'plain' | 'bold' | 'gone';

interface Change {
  tag: string;
  /** The paragraph's state right after the change. */
  leaves: ParagraphState;
  /** The writer's clock right after the change: it is confirmed once a durable message reaches it. */
  clock: number;
}

interface Typist {
  client: LiveClient;
  changes: Change[];
  /** This writer's paragraphs of the round, as it left them. */
  mine: Map<string, ParagraphState>;
}

const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** A copy in random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Round `round` of `rounds` takes its value from its own slice of [min, max], at a random place in it:
 * a few rounds cover the whole range evenly (a crash early in a burst of typing and late in it, few
 * writers and many), where as many independent draws may cluster.
 */
function stratified(round: number, rounds: number, min: number, max: number): number {
  const width = (max - min) / rounds;
  return Math.round(min + width * (round + Math.random()));
}
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

function paragraphs(doc: Y.Doc): Y.XmlElement[] {
  return doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .filter((node): node is Y.XmlElement => node instanceof Y.XmlElement && node.nodeName === 'paragraph');
}

const textOf = (paragraph: Y.XmlElement) => paragraph.toArray().find((node): node is Y.XmlText => node instanceof Y.XmlText);

function stateOf(doc: Y.Doc, tag: string): ParagraphState {
  const text = paragraphs(doc)
    .map(textOf)
    .find((t) => t && plainText(t) === tag);
  if (!text) return 'gone';
  const ops = text.toDelta() as Array<{ attributes?: { bold?: unknown } }>;
  return ops.length > 0 && ops.every((op) => op.attributes?.bold) ? 'bold' : 'plain';
}

/** One change by the writer: mostly a new paragraph, else a deletion or a format change of one of its own. */
function change(typist: Typist, tag: string): void {
  const doc = typist.client.doc;
  const roll = Math.random();
  const own = [...typist.mine].filter(([, state]) => state !== 'gone');
  const target = pick(own);
  let made: { tag: string; leaves: ParagraphState };
  if (roll < 0.55 || !target) {
    appendParagraph(doc, tag);
    made = { tag, leaves: 'plain' };
  } else {
    const [ownTag, state] = target;
    const fragment = doc.getXmlFragment(CONTENT_FIELD);
    const index = fragment
      .toArray()
      .findIndex((node) => node instanceof Y.XmlElement && textOf(node) && plainText(textOf(node)!) === ownTag);
    const text = textOf(fragment.get(index) as Y.XmlElement)!;
    if (roll < 0.75) {
      fragment.delete(index, 1);
      made = { tag: ownTag, leaves: 'gone' };
    } else {
      text.format(0, text.length, { bold: state === 'bold' ? null : {} });
      made = { tag: ownTag, leaves: state === 'bold' ? 'plain' : 'bold' };
    }
  }
  typist.mine.set(made.tag, made.leaves);
  typist.changes.push({ ...made, clock: Y.getState(doc.store, doc.clientID) });
}

/** Per paragraph, its changes in order and how many of them were confirmed durable. */
type History = Map<string, { changes: ParagraphState[]; confirmed: number }>;

function record(history: History, typist: Typist): void {
  const stored = typist.client.durable()?.clocks[String(typist.client.doc.clientID)] ?? 0;
  for (const made of typist.changes) {
    const entry = history.get(made.tag) ?? { changes: [], confirmed: 0 };
    entry.changes.push(made.leaves);
    if (made.clock <= stored) entry.confirmed = entry.changes.length;
    history.set(made.tag, entry);
  }
}

/** Runs a step; its failure also says what the server process logged (its errors), the likeliest witness of why. */
async function withServerOutput(step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (error instanceof Error) error.message += `\n-- what the server process printed last:\n${server.recentOutput() || '(nothing)'}`;
    throw error;
  }
}

/**
 * The paragraphs whose state after the crash no confirmed change explains: a confirmed change may only
 * have been replaced by a later change of the same paragraph (confirmed or not, it may have been stored).
 */
function unexplained(history: History, doc: Y.Doc): string[] {
  const wrong: string[] = [];
  for (const [tag, { changes, confirmed }] of history) {
    if (confirmed === 0) continue;
    const allowed = new Set(changes.slice(confirmed - 1));
    const actual = stateOf(doc, tag);
    if (!allowed.has(actual)) wrong.push(`${tag}: ${actual}, confirmed ${changes[confirmed - 1]}`);
  }
  return wrong;
}

describe('durability under crashes', () => {
  it(`keeps every confirmed addition, deletion and format change through ${KILLS} SIGKILLs while 2-10 writers type`, async () => {
    const history: History = new Map();
    // Writer counts take their slices in a shuffled order, independent of the crash moments' slices.
    const writerSlices = shuffled(Array.from({ length: KILLS }, (_, index) => index));
    for (let round = 0; round < KILLS; round += 1) await withServerOutput(() => crashRound(round));

    async function crashRound(round: number): Promise<void> {
      const count = Math.min(10, stratified(writerSlices[round]!, KILLS, 2, 11));
      const tokens = await signInTypists(count);
      const typists: Typist[] = [];
      for (let i = 0; i < count; i += 1)
        typists.push({ client: await connectWriter(server.url, documentName, tokens[i]!), changes: [], mine: new Map() });
      let typing = true;
      const loops = typists.map(async (typist, index) => {
        for (let seq = 0; typing; seq += 1) {
          change(typist, `r${round}c${index}s${seq}`);
          await new Promise((resolve) => setTimeout(resolve, random(1, 15)));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, stratified(round, KILLS, 50, 600)));
      await server.stop('SIGKILL');
      typing = false;
      await Promise.all(loops);
      for (const typist of typists) record(history, typist);

      await server.start();
      const fresh = await connectWriter(server.url, documentName, tokens[0]!);
      expect(unexplained(history, fresh.doc), `round ${round}: confirmed changes lost in the crash`).toEqual([]);
      const texts = paragraphTexts(fresh.doc);
      expect(texts.length, `round ${round}: duplicated paragraphs`).toBe(new Set(texts).size);

      // The writers reconnect by themselves and push what the crash kept from the server; all converge.
      const content = (doc: Y.Doc) => doc.getXmlFragment(CONTENT_FIELD).toString();
      await eventually(
        () => typists.every((t) => t.client.provider.isSynced) && typists.every((t) => content(t.client.doc) === content(fresh.doc)),
        `round ${round}: writers and a fresh client to converge`,
        30_000,
      );
      for (const typist of typists) typist.client.destroy();
      fresh.destroy();
    }

    const confirmed = [...history.values()].filter((entry) => entry.confirmed > 0);
    expect(confirmed.length).toBeGreaterThan(KILLS);
    // Deletions and format changes were among what was confirmed, not only additions.
    expect(confirmed.some((entry) => entry.changes.slice(1, entry.confirmed).includes('gone'))).toBe(true);
    expect(confirmed.some((entry) => entry.changes.slice(1, entry.confirmed).includes('bold'))).toBe(true);
    // Each round restarts the server process (about 11 s on a quiet 2-core machine, PGlite); in CI, beside
    // the browser suite, rounds took about twice that and 900 s ran out: the budget is generous, since
    // every wait inside a round is bounded on its own (start 60 s, each sign-in 30 s, connect 10 s, convergence 30 s).
  }, 1_800_000);

  it('loses nothing at all on SIGTERM', async () => {
    const tokens = await signInTypists(4);
    const typists = await Promise.all(
      [0, 1, 2].map(async (i) => ({ client: await connectWriter(server.url, documentName, tokens[i]!), tags: [] as string[] })),
    );
    for (let n = 0; n < 40; n += 1) {
      for (const [index, typist] of typists.entries()) {
        const tag = `term-c${index}-s${n}`;
        appendParagraph(typist.client.doc, tag);
        typist.tags.push(tag);
      }
    }
    // Everything has reached the server (not necessarily stored) before the signal.
    for (const typist of typists)
      await roundTrip(typist.client, typists[0]!.client === typist.client ? typists[1]!.client : typists[0]!.client);
    await server.stop('SIGTERM');
    // The writers go away with their local copies, so only what the server stored can come back.
    for (const typist of typists) typist.client.destroy();
    await server.start();
    const fresh = await connectWriter(server.url, documentName, tokens[3]!);
    const present = new Set(paragraphTexts(fresh.doc));
    expect(typists.flatMap((t) => t.tags).filter((tag) => !present.has(tag))).toEqual([]);
    fresh.destroy();
  }, 120_000);
});
