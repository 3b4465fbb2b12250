import { and, asc, desc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { summarizeChanges, type ChangeSummary, type SavedBlock } from '@eln/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/client.js';
import { noteVersions } from '../db/schema.js';

/*
 * What changed in each saved version against the version before it (`note_versions.changes`): written
 * with the version (saveVersion), so the version list reads no blocks. Versions stored before the column
 * existed, and imported ones, have none until the backfill below fills them in; until then the list
 * works theirs out from their blocks (changesOfVersions).
 */

/** A version's changes against the version before it: the nearest earlier one stored, or nothing. */
export function versionChanges(previous: readonly SavedBlock[] | undefined, blocks: readonly SavedBlock[]): ChangeSummary {
  return summarizeChanges(previous ?? [], blocks);
}

/**
 * The changes of the note's versions `wanted` (versions lacking stored ones), from their blocks and
 * their predecessors' in `versions` (every version of the note, ascending): one read of those blocks.
 */
export async function changesOfVersions(
  q: Queryable,
  noteNo: number,
  wanted: readonly number[],
  versions: readonly number[],
): Promise<Map<number, ChangeSummary>> {
  const result = new Map<number, ChangeSummary>();
  if (!wanted.length) return result;
  const previousOf = new Map(versions.map((version, index) => [version, index > 0 ? versions[index - 1] : undefined]));
  const needed = new Set(wanted.flatMap((version) => [version, previousOf.get(version)].filter((v): v is number => v !== undefined)));
  const rows = await q
    .select({ version: noteVersions.version, blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), inArray(noteVersions.version, [...needed])));
  const blocksOf = new Map(rows.map((row) => [row.version, row.blocks as SavedBlock[]]));
  for (const version of wanted) {
    const previous = previousOf.get(version);
    result.set(version, versionChanges(previous === undefined ? undefined : blocksOf.get(previous), blocksOf.get(version) ?? []));
  }
  return result;
}

/** Versions filled in per pass: each reads its blocks and its predecessor's. */
const BACKFILL_BATCH = 20;

/** Fills in the changes of up to `limit` versions that have none; answers how many it filled. */
export async function fillMissingChanges(db: Db, limit = BACKFILL_BATCH): Promise<number> {
  const missing = await db
    .select({ noteNo: noteVersions.noteNo, version: noteVersions.version, blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(isNull(noteVersions.changes))
    .orderBy(asc(noteVersions.noteNo), asc(noteVersions.version))
    .limit(limit);
  for (const row of missing) {
    const [previous] = await db
      .select({ blocks: noteVersions.blocks })
      .from(noteVersions)
      .where(and(eq(noteVersions.noteNo, row.noteNo), lt(noteVersions.version, row.version)))
      .orderBy(desc(noteVersions.version))
      .limit(1);
    const changes = versionChanges(previous?.blocks as SavedBlock[] | undefined, row.blocks as SavedBlock[]);
    // Only where still missing: another process may have filled it in meanwhile, with the same answer.
    await db
      .update(noteVersions)
      .set({ changes })
      .where(and(eq(noteVersions.noteNo, row.noteNo), eq(noteVersions.version, row.version), isNull(noteVersions.changes)));
  }
  return missing.length;
}

/**
 * Fills in, once after the start, the changes of every version stored without them, a batch at a time
 * in the background; stopping waits for the batch in hand. A failure is logged and left for the next start.
 */
export class VersionChangesBackfill {
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.running = this.run().catch((error: unknown) => this.log.error({ err: error }, 'version changes backfill failed'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(): Promise<void> {
    let filled = 0;
    while (!this.stopped) {
      const count = await fillMissingChanges(this.db);
      filled += count;
      if (count < BACKFILL_BATCH) break;
    }
    if (filled) this.log.info({ versions: filled }, 'version changes filled in');
  }
}
