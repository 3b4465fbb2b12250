import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  AUDIT_SYSTEM_REASONS,
  emptyRequest,
  ERR,
  findIdRequest,
  findPasswordRequest,
  maskEmail,
  passwordResetRequest,
  refreshRequest,
  signInRequest,
  TIMING,
  type FindIdAnswer,
  type SignOutAnswer,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { Queryable } from '../db/client.js';
import { passwordResets, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { admitSignIn, findUserById, signInAnswer } from './admit.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { clearRefreshCookie, deliverTokens, refreshTokenFromCookie } from './refreshCookie.js';
import { newOpaqueToken, sha256Hex } from './secrets.js';
import { revokeAllSessions, revokeSession, rotateRefreshToken } from './sessions.js';
import { takeSignOutCookie } from './sso/ssoCookies.js';
import { throttleKeys } from './throttle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sign-in, token refresh, sign-out, the caller's auth flags and account recovery. */
export function registerIdentityRoutes(app: FastifyInstance, services: Services): void {
  const { db, throttle } = services;

  defineRoute(app, services, {
    path: '/v1/user/signIn',
    access: 'public',
    failure: ERR.tokenIssue,
    body: signInRequest,
    async handler({ body, request, reply, clientAddress }) {
      const accountKey = throttleKeys.account(body.userId);
      const addressKey = throttleKeys.address(clientAddress);
      const lockedFor = await throttle.lockedForSeconds(db, [accountKey, addressKey]);
      if (lockedFor > 0) {
        // The lock was audited when it started; attempts during it are only counted.
        await throttle.recordRefusal(db, [accountKey, addressKey]);
        throw throttle.lockedError(lockedFor);
      }

      const user = await findUserById(db, body.userId);
      if (!(await verifyPassword(user?.passwordHash ?? null, body.password))) {
        const failures = await db.transaction(async (tx) => {
          const accountFailures = await throttle.recordAccountFailure(tx, body.userId);
          const addressFailures = await throttle.recordAddressFailure(tx, addressKey);
          await appendAudit(tx, { actor: null, action: 'user.signInFailed', target: { type: 'user', id: body.userId }, clientAddress });
          // 0 failures means this one started a lock (of the account, the address or both): audited once.
          if (accountFailures === 0 || addressFailures === 0) {
            await appendAudit(tx, {
              actor: null,
              action: 'user.signInRefused',
              target: { type: 'user', id: body.userId },
              reason: AUDIT_SYSTEM_REASONS.locked,
              clientAddress,
            });
          }
          return accountFailures;
        });
        if (failures === 0) throw throttle.lockedError();
        await sleep(throttle.delayFor(failures));
        throw new AppError(ERR.badCredentials);
      }
      // From here on the caller has proven the password, so saying why they cannot enter reveals nothing.
      if (!user) throw new AppError(ERR.badCredentials);
      const admitted = await admitSignIn(services, {
        user,
        request,
        reply,
        clientAddress,
        refreshIn: body.refreshIn,
        async withSession(tx) {
          const refusedWhileLocked = await throttle.clear(tx, accountKey);
          // The first sign-in after a lock tells how many attempts the lock refused.
          return refusedWhileLocked > 0 ? { refusedWhileLocked } : undefined;
        },
      });
      return admitted.answer;
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/refresh',
    access: 'public',
    failure: ERR.tokenIssue,
    body: refreshRequest,
    async handler({ body, request, reply, clientAddress }) {
      const presented = body.refreshIn === 'cookie' ? refreshTokenFromCookie(request) : body.refreshToken;
      const refuse = () => {
        if (body.refreshIn === 'cookie') clearRefreshCookie(request, reply);
        return new AppError(ERR.refreshInvalid);
      };
      if (!presented) throw refuse();
      // A reuse revokes the session: its open live connections end now, not at their next check.
      const result = await services.live.transaction(db, async (tx, commands) => {
        const rotated = await rotateRefreshToken(tx, presented);
        if (rotated.kind === 'reused') {
          const [owner] = await tx.select().from(users).where(eq(users.userNo, rotated.userNo));
          await appendAudit(tx, {
            actor: owner ? { userNo: owner.userNo, userId: owner.userId } : null,
            action: 'user.refreshReuse',
            target: { type: 'session', id: rotated.sessionId },
            reason: AUDIT_SYSTEM_REASONS.refreshReuse,
            clientAddress,
          });
          commands.recheckUsers([rotated.userNo]);
        }
        return rotated;
      });
      if (result.kind !== 'rotated') throw refuse();
      const [user] = await db.select().from(users).where(eq(users.userNo, result.userNo));
      if (!user?.active) throw refuse();
      return deliverTokens(request, reply, body.refreshIn, signInAnswer(services, user, result.sessionId, result.refreshToken));
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/signOut',
    access: 'user',
    failure: ERR.signOutFailed,
    body: emptyRequest,
    async handler({ user, request, reply, clientAddress }): Promise<SignOutAnswer> {
      clearRefreshCookie(request, reply);
      const endSessionUrl = takeSignOutCookie(app.jwt, request, reply, user.sessionId);
      // The session's open live connections end now, on every process, not at their next check.
      await services.live.transaction(db, async (tx, commands) => {
        await revokeSession(tx, user.sessionId, 'signed out');
        await appendAudit(tx, { actor: user, action: 'user.signOut', target: { type: 'session', id: user.sessionId }, clientAddress });
        commands.recheckUsers([user.userNo]);
      });
      return { endSessionUrl };
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/auth/list',
    access: 'user',
    body: emptyRequest,
    handler: async ({ user }) => user.auth,
  });

  defineRoute(app, services, {
    path: '/v1/user/find/id',
    access: 'public',
    failure: ERR.employeeLookup,
    body: findIdRequest,
    async handler({ body, clientAddress }): Promise<FindIdAnswer> {
      const key = throttleKeys.recovery(clientAddress);
      await throttle.assertNotLocked(db, [key]);
      const [user] = await db
        .select({ userId: users.userId })
        .from(users)
        .where(and(eq(users.name, body.name), eq(users.phone, body.phone), eq(users.active, true)));
      if (!user) {
        await throttle.recordAddressFailure(db, key);
        throw new AppError(ERR.noMatchingAccount);
      }
      return { maskedUserId: maskEmail(user.userId) };
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/find/password',
    access: 'public',
    body: findPasswordRequest,
    async handler({ body, clientAddress, request }) {
      const key = throttleKeys.recovery(clientAddress);
      await throttle.assertNotLocked(db, [key]);
      // Every request counts, found or not, so that the endpoint cannot be used to flood mailboxes.
      await throttle.recordAddressFailure(db, key);
      // The answer goes before the account is even looked up: known and unknown IDs take the same path,
      // so neither the answer nor its timing says whether the account exists. The link is made and
      // mailed afterwards.
      void issuePasswordReset(services, body.userId, clientAddress).catch((error: unknown) =>
        request.log.error({ err: error }, 'password reset request failed'),
      );
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/password/reset',
    access: 'public',
    body: passwordResetRequest,
    async handler({ body, clientAddress }) {
      const key = throttleKeys.recovery(clientAddress);
      await throttle.assertNotLocked(db, [key]);
      // The token is checked before the (deliberately slow) password hash, so made-up tokens cost a
      // lookup, not an argon2 run, and count against the address like any failed recovery.
      const tokenHash = sha256Hex(body.token);
      if (!(await findLiveReset(db, tokenHash))) {
        await throttle.recordAddressFailure(db, key);
        throw new AppError(ERR.resetInvalid);
      }
      const passwordHash = await hashPassword(body.password);
      const resetUserNo = await services.live.transaction(db, async (tx, commands) => {
        // Spent here and not before: of two uses of one link racing, only one finds it unused.
        const [reset] = await tx.update(passwordResets).set({ usedAt: new Date() }).where(liveReset(tokenHash)).returning();
        if (!reset) return null;
        const [user] = await tx
          .update(users)
          .set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() })
          .where(eq(users.userNo, reset.userNo))
          .returning();
        if (!user) return null;
        await revokeAllSessions(tx, user.userNo, 'password reset');
        await throttle.clear(tx, throttleKeys.account(user.userId));
        await appendAudit(tx, {
          actor: { userNo: user.userNo, userId: user.userId },
          action: 'user.passwordReset',
          target: { type: 'user', id: user.userId },
          clientAddress,
        });
        // Every session ended: so do the user's open live connections, at once.
        commands.recheckUsers([user.userNo]);
        return user.userNo;
      });
      if (resetUserNo === null) throw new AppError(ERR.resetInvalid);
      return null;
    },
  });
}

/** The reset link with this token hash while it is unused and unexpired. */
const liveReset = (tokenHash: string) =>
  and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()));

/** The unused, unexpired reset with this token hash, if any. */
async function findLiveReset(q: Queryable, tokenHash: string): Promise<typeof passwordResets.$inferSelect | undefined> {
  const [reset] = await q.select().from(passwordResets).where(liveReset(tokenHash));
  return reset;
}

/** Makes a reset link for an active account with this ID and mails it; nothing for any other ID. */
async function issuePasswordReset(services: Services, userId: string, clientAddress: string): Promise<void> {
  const { db } = services;
  const user = await findUserById(db, userId);
  if (!user?.active) return;
  const token = newOpaqueToken();
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: sha256Hex(token),
      userNo: user.userNo,
      expiresAt: new Date(Date.now() + TIMING.passwordResetSeconds * 1000),
    });
    await appendAudit(tx, { actor: null, action: 'user.passwordResetRequested', target: { type: 'user', id: user.userId }, clientAddress });
  });
  const link = `${services.config.publicUrl}/signin?reset=${token}`;
  await services.mailer.send({
    to: user.userId,
    subject: 'ELN password reset',
    text: `Someone asked to reset the password of ${user.userId}.\nOpen this link within ${TIMING.passwordResetSeconds / 60} minutes to choose a new one:\n${link}\nIf it was not you, ignore this mail.`,
  });
}
