import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { Document, Hocuspocus } from '@hocuspocus/server';
import { documentUpdates } from '../../db/schema.js';
import { createTestDatabase } from '../../testing/harness.js';
import { DatabaseDocumentStore } from './documentStore.js';
import { DurablePersistence } from './durablePersistence.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A logger whose records the test reads. */
function recordingLogger(): { log: FastifyBaseLogger; records: Array<{ level: number; msg: string }> } {
  const records: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { log: Fastify({ logger: { level: 'info', stream } }).log, records };
}

describe('loading a stored document with a clock gap', () => {
  it('says so loudly, and confirms nothing past the gap', async () => {
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    // One writer's three edits; the second never reached the database.
    const writer = new Y.Doc();
    const updates: Uint8Array[] = [];
    writer.on('update', (update: Uint8Array) => updates.push(update));
    for (const text of ['a', 'b', 'c']) writer.getText('t').insert(writer.getText('t').length, text);
    const documentName = 'gap.1';
    await database.db.insert(documentUpdates).values([updates[0]!, updates[2]!].map((update) => ({ documentName, update })));

    const { log, records } = recordingLogger();
    const persistence = new DurablePersistence(new DatabaseDocumentStore(database), log);
    const document = new Document(documentName);
    await persistence.onLoadDocument({ documentName, document, instance: new Hocuspocus({ quiet: true }) } as Parameters<
      DurablePersistence['onLoadDocument']
    >[0]);

    const errors = records.filter((r) => r.level >= 50);
    expect(errors.map((r) => r.msg)).toEqual(['stored document has a clock gap: edits after it cannot be applied and are missing']);
    expect(document.getText('t').toString()).toBe('a');
    // The durable clock the editor is told stops at the gap: the third edit is not shown saved.
    const sent: string[] = [];
    await persistence.connected({
      documentName,
      connection: { sendStateless: (m: string) => sent.push(m), readOnly: true },
      connectionConfig: {},
    } as unknown as Parameters<DurablePersistence['connected']>[0]);
    expect(JSON.parse(sent[0]!).clocks).toEqual({ [writer.clientID]: 1 });
  });
});
