import { eq } from 'drizzle-orm';
import { AUDIT_SYSTEM_REASONS, type DirectorySyncCounts } from '@eln/shared';
import { appendAuditBatch, type AuditActor, type AuditEntry } from '../audit/audit.js';
import { revokeAllSessions } from '../auth/sessions.js';
import type { QueuedLiveCommands } from '../collab/commands/liveDocuments.js';
import type { Tx } from '../db/client.js';
import { departments, users } from '../db/schema.js';
import type { DirectorySnapshot, NoteBook, SnapshotDepartment, SnapshotUser } from './directorySnapshot.js';
import { directoryMayDeactivate } from './policy.js';
import { notify } from '../notifications/notify.js';
import { activeAdministrators } from '../notifications/recipients.js';
import { emitWebhook } from '../webhooks/emit.js';

export interface ApplyContext {
  companyCode: string;
  /** The administrator who asked, or null for the server's interval. */
  actor: AuditActor | null;
  clientAddress: string | null;
  now: Date;
}

type DepartmentRecord = typeof departments.$inferSelect;
type UserRecord = typeof users.$inferSelect;

/** Users created by synchronisation have no password anyone knows: sign-in treats them as a wrong password (README). */
export const NO_PASSWORD = '';
const INSERT_CHUNK = 500;

export function emptyCounts(): DirectorySyncCounts {
  return {
    departments: { read: 0, created: 0, updated: 0, missing: 0, restored: 0, skipped: 0 },
    users: { read: 0, created: 0, updated: 0, moved: 0, deactivated: 0, reactivated: 0, skipped: 0 },
  };
}

/**
 * Makes the notebook's departments and people what the directory says, inside the caller's transaction:
 * creates, updates, moves, deactivates people who left (ending their sessions) and marks departments the
 * directory no longer lists. Each change is audited with the synchronisation as its reason. Only
 * directory-kept records are deactivated or marked; the notebook's own departments and people stay.
 * Running it again with nothing changed in the directory changes nothing.
 */
export async function applySnapshot(
  tx: Tx,
  commands: QueuedLiveCommands,
  snapshot: DirectorySnapshot,
  counts: DirectorySyncCounts,
  context: ApplyContext,
): Promise<void> {
  const ctx: Work = { ...context, trail: [] };
  const knownCodes = await applyDepartments(tx, snapshot.departments, counts, ctx);
  await applyUsers(tx, commands, snapshot.users, knownCodes, snapshot.notes, counts, ctx);
  // A first run creates thousands of people: their records go into the chain together, in the order made.
  await appendAuditBatch(tx, ctx.trail);
}

/** The context of one apply, with the audit records it makes (appended at its end, in order). */
interface Work extends ApplyContext {
  trail: AuditEntry[];
}

async function applyDepartments(
  tx: Tx,
  listed: readonly SnapshotDepartment[],
  counts: DirectorySyncCounts,
  ctx: Work,
): Promise<Set<string>> {
  const existing = new Map((await tx.select().from(departments)).map((row) => [row.code, row]));
  const fresh = parentsFirst(listed.filter((d) => !existing.has(d.code)));
  if (fresh.length > 0) {
    await tx.insert(departments).values(
      fresh.map((d) => ({
        code: d.code,
        name: d.name,
        parentCode: d.parentCode,
        companyCode: ctx.companyCode,
        source: 'directory' as const,
        directoryId: d.dn,
      })),
    );
    counts.departments.created = fresh.length;
    for (const d of fresh)
      audit(ctx, 'department.created', 'department', d.code, undefined, { code: d.code, name: d.name, parentCode: d.parentCode });
  }
  for (const d of listed) {
    const current = existing.get(d.code);
    if (current) await updateDepartment(tx, current, d, counts, ctx);
  }
  const listedCodes = new Set(listed.map((d) => d.code));
  for (const current of existing.values()) {
    if (current.source !== 'directory' || listedCodes.has(current.code) || current.directoryMissingAt) continue;
    // Kept, not dropped: people and projects may refer to it. The screen shows it as missing.
    await tx.update(departments).set({ directoryMissingAt: ctx.now, updatedAt: ctx.now }).where(eq(departments.code, current.code));
    counts.departments.missing += 1;
    audit(
      ctx,
      'department.updated',
      'department',
      current.code,
      { missingSince: null },
      { missingSince: ctx.now.toISOString() },
      AUDIT_SYSTEM_REASONS.leftDirectory,
    );
  }
  return new Set([...existing.keys(), ...listedCodes]);
}

async function updateDepartment(
  tx: Tx,
  current: DepartmentRecord,
  listed: SnapshotDepartment,
  counts: DirectorySyncCounts,
  ctx: Work,
): Promise<void> {
  const restored = current.directoryMissingAt !== null;
  const changed =
    current.name !== listed.name ||
    current.parentCode !== listed.parentCode ||
    current.source !== 'directory' ||
    current.directoryId !== listed.dn;
  if (!changed && !restored) return;
  await tx
    .update(departments)
    .set({
      name: listed.name,
      parentCode: listed.parentCode,
      source: 'directory',
      directoryId: listed.dn,
      directoryMissingAt: null,
      updatedAt: ctx.now,
    })
    .where(eq(departments.code, current.code));
  if (changed) counts.departments.updated += 1;
  if (restored) counts.departments.restored += 1;
  audit(
    ctx,
    'department.updated',
    'department',
    current.code,
    {
      name: current.name,
      parentCode: current.parentCode,
      source: current.source,
      missingSince: current.directoryMissingAt?.toISOString() ?? null,
    },
    { name: listed.name, parentCode: listed.parentCode, source: 'directory', missingSince: null },
  );
}

async function applyUsers(
  tx: Tx,
  commands: QueuedLiveCommands,
  listed: readonly SnapshotUser[],
  knownCodes: ReadonlySet<string>,
  notes: NoteBook,
  counts: DirectorySyncCounts,
  ctx: Work,
): Promise<void> {
  const existing = new Map((await tx.select().from(users)).map((row) => [row.userId, row]));
  const departmentOf = (user: SnapshotUser): string | null => {
    if (!user.departmentRef) return null;
    if (knownCodes.has(user.departmentRef)) return user.departmentRef;
    notes.add(user.userId, 'departmentUnknown');
    return null;
  };
  const fresh: Array<SnapshotUser & { departmentCode: string | null }> = [];
  for (const user of listed) {
    const departmentCode = departmentOf(user);
    const current = existing.get(user.userId);
    if (current) await updateUser(tx, current, { ...user, departmentCode }, counts, ctx);
    else fresh.push({ ...user, departmentCode });
  }
  await createUsers(tx, fresh, counts, ctx);

  const listedIds = new Set(listed.map((u) => u.userId));
  const left = [...existing.values()].filter((u) => u.source === 'directory' && u.active && !listedIds.has(u.userId));
  const deactivated: number[] = [];
  for (const user of left) {
    if (!directoryMayDeactivate(user)) {
      notes.add(user.userId, 'administratorKept');
      continue;
    }
    await tx.update(users).set({ active: false, directoryMissingAt: ctx.now, updatedAt: ctx.now }).where(eq(users.userNo, user.userNo));
    await revokeAllSessions(tx, user.userNo, AUDIT_SYSTEM_REASONS.leftDirectory);
    audit(ctx, 'user.updated', 'user', user.userId, { active: true }, { active: false }, AUDIT_SYSTEM_REASONS.leftDirectory);
    deactivated.push(user.userNo);
  }
  counts.users.deactivated = deactivated.length;
  if (deactivated.length) {
    // Told by the system (whoever started the run): every administrator hears of it, the starter too.
    await notify(tx, {
      event: 'usersDeactivated',
      recipients: await activeAdministrators(tx),
      actorUserNo: null,
      payload: { count: deactivated.length },
    });
    await emitWebhook(tx, {
      event: 'user.deactivated',
      projectNo: null,
      data: { userNos: deactivated, deactivatedByUserNo: null, byDirectory: true },
    });
  }
  // Their open notes turn read-only (or close) at once, not at the next periodic session check.
  commands.recheckUsers(deactivated);
}

async function createUsers(
  tx: Tx,
  fresh: ReadonlyArray<SnapshotUser & { departmentCode: string | null }>,
  counts: DirectorySyncCounts,
  ctx: Work,
): Promise<void> {
  for (let start = 0; start < fresh.length; start += INSERT_CHUNK) {
    const chunk = fresh.slice(start, start + INSERT_CHUNK);
    await tx.insert(users).values(
      chunk.map((u) => ({
        userId: u.userId,
        name: u.name,
        passwordHash: NO_PASSWORD,
        employeeNo: u.employeeNo,
        phone: u.phone,
        departmentCode: u.departmentCode,
        source: 'directory' as const,
      })),
    );
    for (const u of chunk) {
      audit(ctx, 'user.created', 'user', u.userId, undefined, {
        userId: u.userId,
        name: u.name,
        employeeNo: u.employeeNo,
        phone: u.phone,
        departmentCode: u.departmentCode,
      });
    }
  }
  counts.users.created = fresh.length;
}

type UserFields = Pick<UserRecord, 'name' | 'employeeNo' | 'phone' | 'departmentCode'>;

async function updateUser(tx: Tx, current: UserRecord, listed: UserFields, counts: DirectorySyncCounts, ctx: Work): Promise<void> {
  const fields: Array<keyof UserFields> = ['name', 'employeeNo', 'phone', 'departmentCode'];
  const changed = fields.filter((field) => current[field] !== listed[field]);
  const moved = changed.includes('departmentCode');
  const edited = changed.some((field) => field !== 'departmentCode');
  const adopted = current.source !== 'directory';
  // Back in the directory after synchronisation deactivated them; an administrator's deactivation stays.
  const reactivated = !current.active && current.directoryMissingAt !== null;
  if (changed.length === 0 && !adopted && !reactivated) return;
  await tx
    .update(users)
    .set({ ...listed, source: 'directory', ...(reactivated ? { active: true, directoryMissingAt: null } : {}), updatedAt: ctx.now })
    .where(eq(users.userNo, current.userNo));
  if (moved) counts.users.moved += 1;
  if (edited || adopted) counts.users.updated += 1;
  if (reactivated) counts.users.reactivated += 1;
  const before: Record<string, unknown> = Object.fromEntries(changed.map((field) => [field, current[field]]));
  const after: Record<string, unknown> = Object.fromEntries(changed.map((field) => [field, listed[field]]));
  if (adopted) {
    before.source = current.source;
    after.source = 'directory';
  }
  if (reactivated) {
    before.active = false;
    after.active = true;
  }
  audit(ctx, 'user.updated', 'user', current.userId, before, after);
}

/** New departments ordered so that each comes after its parent (the parent reference is checked). */
function parentsFirst(fresh: readonly SnapshotDepartment[]): SnapshotDepartment[] {
  const byCode = new Map(fresh.map((d) => [d.code, d]));
  const ordered: SnapshotDepartment[] = [];
  const placed = new Set<string>();
  const place = (d: SnapshotDepartment) => {
    if (placed.has(d.code)) return;
    placed.add(d.code);
    const parent = d.parentCode ? byCode.get(d.parentCode) : undefined;
    if (parent) place(parent);
    ordered.push(d);
  };
  fresh.forEach(place);
  return ordered;
}

function audit(
  ctx: Work,
  action: 'department.created' | 'department.updated' | 'user.created' | 'user.updated',
  type: 'department' | 'user',
  id: string,
  before: unknown,
  after: unknown,
  reason: string = AUDIT_SYSTEM_REASONS.directorySync,
): void {
  ctx.trail.push({ actor: ctx.actor, action, target: { type, id }, before, after, reason, clientAddress: ctx.clientAddress });
}
