import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '@eln/shared';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { mailOutbox } from '../../server/src/db/schema.js';
import { TestSmtpServer } from '../../server/src/testing/smtp.js';
import { ServerProcess } from './serverProcess.js';

/**
 * The outbox survives a SIGKILL between write and send without losing or doubling a mail. A real process
 * (mailWriter.ts) commits notifications with their mails while its sender claims the first of them and
 * starts sending to an SMTP server that never answers; it is killed with SIGKILL. Then the real server
 * (server/src/main.ts) starts on the same database, with the SMTP server answering again, and sends every
 * mail: the SMTP server counts each Message-ID exactly once, the ones the dead process had claimed (after
 * their lease) with the Message-ID it had given them.
 */
const ROUNDS = 8;
const PEOPLE = 5;
const MAILS = ROUNDS * PEOPLE;
const PASSWORD = 'crash-test-password-1';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

let smtp: TestSmtpServer;
let server: ServerProcess;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  server = await ServerProcess.create(undefined, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://eln.crash.example' });
});

afterAll(async () => {
  await server?.dispose();
  await smtp?.close();
});

/** The outbox as the database holds it, read while no server process runs (PGlite has one process at a time). */
async function outboxRows() {
  const database = await openDatabase(loadConfig(server.env).database);
  try {
    return await database.db.select().from(mailOutbox).orderBy(mailOutbox.mailId);
  } finally {
    await database.close();
  }
}

it('sends every mail exactly once after the process that wrote them is killed before sending', { timeout: 180_000 }, async () => {
  smtp.answerAll({ kind: 'stall' });
  const writer = spawn(process.execPath, ['--import', 'tsx', 'tests/realtime/mailWriter.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...server.env,
      DATABASE_URL: server.env.DATABASE_URL ?? '',
      MAIL_ROUNDS: String(ROUNDS),
      MAIL_PEOPLE: String(PEOPLE),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => writer.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    writer.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(`committed ${MAILS}\n`)) resolve();
    });
    void exited.then(() => reject(new Error(`the writer ended before committing: ${stderr}`)));
  });
  // Its sender has claimed a batch and is in the middle of sending the first mail, which is never answered.
  await smtp.waitForDelivered(1, 30_000);
  writer.kill('SIGKILL');
  await exited;
  expect(smtp.received).toEqual([]);

  const left = await outboxRows();
  expect(left).toHaveLength(MAILS);
  const claimed = left.filter((row) => row.status === 'sending');
  expect(claimed).toHaveLength(PEOPLE);
  expect(left.filter((row) => row.status === 'pending')).toHaveLength(MAILS - PEOPLE);
  // The held message was one of the claimed mails, under the Message-ID the outbox keeps for it.
  expect(claimed.map((row) => row.messageId)).toContain(smtp.delivered[0]);

  smtp.answerAll({ kind: 'accept' });
  await server.start();
  await smtp.waitForReceived(MAILS, 90_000);
  const admin = await server.call(api.auth.signIn, { userId: 'admin0@crash.test', password: PASSWORD });
  for (;;) {
    const sent = await server.call(api.mail.list, { status: 'sent', page: 1, pageSize: 1 }, admin.accessToken);
    if (sent.totalCount === MAILS) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop('SIGTERM');

  const done = await outboxRows();
  expect(done.map((row) => row.status)).toEqual(Array(MAILS).fill('sent'));
  const received = smtp.messageIds();
  expect(received).toHaveLength(MAILS);
  expect(new Set(received).size).toBe(MAILS);
  expect(new Set(received)).toEqual(new Set(done.map((row) => row.messageId)));
  // The mails the killed process had claimed kept their Message-IDs; each was tried once more.
  for (const row of claimed) expect(done.find((d) => d.mailId === row.mailId)).toMatchObject({ messageId: row.messageId, attempts: 2 });
});
