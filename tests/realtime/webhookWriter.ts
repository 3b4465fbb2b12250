import { ADMIN_LEVEL } from '@eln/shared';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users, webhookEndpoints } from '../../server/src/db/schema.js';
import { WebhookDeliverer } from '../../server/src/webhooks/deliverer.js';
import { emitWebhook } from '../../server/src/webhooks/emit.js';

/**
 * The first process of the webhook crash test (webhookOutbox.test.ts), on the test's database (DATA_DIR or
 * DATABASE_URL): it registers an administrator's endpoint at WEBHOOK_URL (secret WEBHOOK_SECRET), commits
 * WEBHOOK_EVENTS events, one transaction each, printing `committed <n>` after each, while its own deliverer
 * (the real one, with a lease of LEASE_MS) claims the first and sends it to a receiver that never answers.
 * It never ends by itself: the test kills it with SIGKILL.
 */
const events = Number(process.env.WEBHOOK_EVENTS ?? 20);
const config = loadConfig();
const database = await openDatabase(config.database);
const { db } = database;
const log = {
  warn: (details: object, message: string) => console.error(message, details),
  error: (details: object, message: string) => console.error(message, details),
};

const [owner] = await db
  .insert(users)
  .values({ userId: 'hooks@crash.test', name: 'Hook Owner', passwordHash: await hashPassword('crash-test-password-1'), level: ADMIN_LEVEL })
  .returning({ userNo: users.userNo });
await db.insert(webhookEndpoints).values({
  url: process.env.WEBHOOK_URL ?? '',
  events: ['user.deactivated'],
  ownerUserNo: owner!.userNo,
  secret: process.env.WEBHOOK_SECRET ?? '',
});
const deliverer = new WebhookDeliverer({ db, log, allowLocal: true }, { pollMs: 100, leaseMs: Number(process.env.LEASE_MS ?? 3_000) });
await deliverer.start();
for (let n = 1; n <= events; n += 1) {
  await db.transaction((tx) => emitWebhook(tx, { event: 'user.deactivated', projectNo: null, data: { userNos: [n], byDirectory: false } }));
  process.stdout.write(`committed ${n}\n`);
}
// Held open until killed.
setInterval(() => undefined, 60_000);
