import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { settings } from '../db/schema.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand, so tests can present tokens the server never issued: expired, unsigned, wrongly keyed. */
export function forgeJwt(payload: Record<string, unknown>, options: { secret?: string; alg?: 'HS256' | 'none' } = {}): string {
  const alg = options.alg ?? 'HS256';
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha256', options.secret ?? 'not-the-server-secret')
    .update(head)
    .digest('base64url')}`;
}

export async function serverSecret(db: Db): Promise<string> {
  const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  if (!row) throw new Error('no signing secret stored');
  return row.value;
}

/** The claims of an access token, read without checking it (tests only). */
export function claimsOf(token: string): Record<string, unknown> {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
}
