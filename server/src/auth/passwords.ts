import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import PQueue from 'p-queue';

// Algorithm.Argon2id; the package's enum is an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2;

/** OWASP ASVS parameters for argon2id: 19 MiB, two passes, one lane. */
const ARGON2 = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Who waits for an argon2 run, most urgent first: a person signing in or confirming their password (a
 * signature, an approval) waits at the screen; an administrator's account change comes next; a password
 * reset, which anyone can send in numbers, comes last, so a flood of resets never delays a sign-in.
 */
export const ARGON2_PRIORITY = { signIn: 2, account: 1, reset: 0 } as const;
export type Argon2Purpose = keyof typeof ARGON2_PRIORITY;

/**
 * Runs argon2 work a few at a time, the most urgent waiting run first. Each run holds 19 MiB and one of
 * libuv's four threads for tens of milliseconds: unbounded, a burst of runs would take every thread (and
 * the file reads and TLS that share them) and make each one wait behind all the others.
 */
export class Argon2Pool {
  private readonly queue: PQueue;

  constructor(readonly concurrency: number) {
    this.queue = new PQueue({ concurrency });
  }

  run<T>(purpose: Argon2Purpose, job: () => Promise<T>): Promise<T> {
    return this.queue.add(job, { priority: ARGON2_PRIORITY[purpose] });
  }

  /** Runs under way and runs waiting, for tests and logs. */
  get load(): { running: number; waiting: number } {
    return { running: this.queue.pending, waiting: this.queue.size };
  }
}

/** Two runs at once leave libuv's other threads free even on a 2-core machine; more cores, at most four. */
const ARGON2_CONCURRENCY = Math.max(2, Math.min(4, availableParallelism() - 1));

/** The one pool every password hash and check of this process goes through. */
export const argon2Pool = new Argon2Pool(ARGON2_CONCURRENCY);

export function hashPassword(password: string, purpose: Argon2Purpose = 'account'): Promise<string> {
  return argon2Pool.run(purpose, () => hash(password, ARGON2));
}

/** A hash of nothing anyone knows, verified when the account does not exist so that timing tells nothing. */
let decoyHash: Promise<string> | null = null;

/** Checks a password against its hash; sign-in's priority unless said otherwise (a decoy run when there is no hash). */
export async function verifyPassword(passwordHash: string | null, password: string, purpose: Argon2Purpose = 'signIn'): Promise<boolean> {
  if (!passwordHash) {
    decoyHash ??= hashPassword('decoy password that no account has', purpose);
    const decoy = await decoyHash;
    await argon2Pool.run(purpose, () => verify(decoy, password)).catch(() => false);
    return false;
  }
  return argon2Pool.run(purpose, () => verify(passwordHash, password)).catch(() => false);
}
