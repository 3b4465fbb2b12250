import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';

/** A fresh PostgreSQL database for one benchmark run, dropped afterwards. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `eln_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw new Error(`The benchmark needs PostgreSQL at ${base} (set BENCH_DATABASE_URL): ${(error as Error).message}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = postgres(base, { max: 1, onnotice: () => undefined });
      await client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  console.log(`\n${title}`);
  console.table(rows);
}

/** Linux's clock ticks per second for /proc's CPU times (`getconf CLK_TCK`; 100 on every kernel built for x86-64 and arm64). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time every PostgreSQL process on this machine has used so far, in ms (user and system, from
 * /proc/<pid>/stat; 10 ms steps), or null where there is none to read (PostgreSQL on another host, or
 * no /proc). Differences between two readings are what PostgreSQL spent in between, on whatever
 * database: meaningful only when nothing else uses it meanwhile.
 */
export function postgresCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  return cpuMsOf(pids, true);
}

/**
 * CPU time the given PostgreSQL backends (by process id, `pg_backend_pid()`) have used so far, in ms
 * (null where /proc cannot be read): one database's work while others use the same server.
 */
export function backendCpuMs(pids: number[]): number | null {
  return cpuMsOf(pids.map(String), false);
}

function cpuMsOf(pids: string[], postgresOnly: boolean): number | null {
  let ticks = 0;
  let found = false;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (postgresOnly && stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
    // After the name: state, ppid, ... utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    found = true;
  }
  return found ? (ticks * 1000) / TICKS_PER_SECOND : null;
}

/** The `p`th percentile of unsorted values, to a tenth. */
function percentileOf(values: readonly number[], p: number): number {
  return Number(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ).toFixed(1),
  );
}

/** A table row of timings: their count, p50, p99 and max, against a p99 goal. */
export function timingRow(label: string, values: readonly number[], goalMs: number, counted = 'calls'): Record<string, string | number> {
  const p99 = percentileOf(values, 99);
  return {
    case: label,
    [counted]: values.length,
    'p50 ms': percentileOf(values, 50),
    'p99 ms': p99,
    'max ms': percentileOf(values, 100),
    goal: `p99 ≤ ${goalMs} ms`,
    met: p99 <= goalMs ? 'yes' : 'NO',
  };
}

/** A statement a capturing database saw (listsAtScale.bench.ts `capturingDatabase`). */
export interface CapturedQuery {
  query: string;
  params: unknown[];
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the captured statements `keep` accepts, each in a transaction that first
 * makes the `set local` settings the call made (its own transaction's), under `-- title`.
 */
export async function explainCaptured(
  client: postgres.Sql,
  title: string,
  queries: CapturedQuery[],
  keep: (query: string) => boolean,
  width = 200,
): Promise<string[]> {
  const lines = [`\n-- ${title}`];
  for (const { query, params } of queries) {
    if (!/^\s*(select|with|\()/i.test(query) || /from "sessions"/i.test(query) || !keep(query)) continue;
    const plan = await client.begin(async (tx) => {
      for (const setting of queries.filter((q) => /^\s*set local/i.test(q.query))) await tx.unsafe(setting.query);
      return tx.unsafe<Array<{ 'QUERY PLAN': string }>>(`explain (analyze, buffers, costs off) ${query}`, params as never[]);
    });
    lines.push(`   ${query.slice(0, width).replace(/\s+/g, ' ')}${query.length > width ? '…' : ''}`);
    for (const row of plan) lines.push(`     ${row['QUERY PLAN']}`);
  }
  return lines;
}
