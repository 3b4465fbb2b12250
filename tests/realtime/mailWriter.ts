import { ADMIN_LEVEL } from '@eln/shared';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { MailOutbox } from '../../server/src/mail/outbox.js';
import { notify } from '../../server/src/notifications/notify.js';
import { createMailer } from '../../server/src/system/mailer.js';

/**
 * The first process of the outbox crash test (mailOutbox.test.ts), on the test's database (DATA_DIR or
 * DATABASE_URL) and SMTP server (SMTP_URL): it records notifications with their mails, MAIL_ROUNDS
 * transactions of MAIL_PEOPLE administrators each (a directory synchronisation's, theirs to read), and
 * prints `committed <mails>` after each commit (they sign in with MAIL_ADMIN_PASSWORD), while its own mail sender (the real one, with a lease of
 * LEASE_MS) claims them and sends to a server that holds every message without answering. It never ends
 * by itself: the test kills it with SIGKILL.
 */
const rounds = Number(process.env.MAIL_ROUNDS ?? 8);
const people = Number(process.env.MAIL_PEOPLE ?? 5);
const config = loadConfig();
const database = await openDatabase(config.database);
const { db } = database;
const log = {
  info: () => undefined,
  warn: (details: object, message: string) => console.error(message, details),
  error: (details: object, message: string) => console.error(message, details),
};

const passwordHash = await hashPassword(process.env.MAIL_ADMIN_PASSWORD ?? 'crash-test-password-1');
const recipients = await db
  .insert(users)
  .values(
    Array.from({ length: people }, (_, i) => ({
      userId: `admin${i}@crash.test`,
      name: `Admin ${i}`,
      passwordHash,
      level: ADMIN_LEVEL,
    })),
  )
  .returning({ userNo: users.userNo });
const outbox = new MailOutbox(
  { db, mailer: await createMailer(config.smtpUrl, config.mailFrom, log), log, publicUrl: config.publicUrl, timeZone: config.timeZone },
  { pollMs: 100, leaseMs: Number(process.env.LEASE_MS ?? 3_000), batch: people },
);
outbox.start();
for (let round = 1; round <= rounds; round += 1) {
  await db.transaction((tx) =>
    notify(tx, { event: 'usersDeactivated', recipients: recipients.map((r) => r.userNo), actorUserNo: null, payload: { count: round } }),
  );
  process.stdout.write(`committed ${round * people}\n`);
}
// Held open until killed.
setInterval(() => undefined, 60_000);
