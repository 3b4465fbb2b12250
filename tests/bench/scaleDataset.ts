import postgres from 'postgres';
import { GENESIS_HASH, hashOf, type UnhashedRecord } from '../../server/src/audit/audit.js';

export const SCALE = {
  departments: 50,
  users: 5_000,
  projects: 10_000,
  notesPerProject: 10,
  auditRecords: 1_000_000,
  templates: 2_000,
  dropboxes: 2_000,
  dropboxRows: 20,
  schemaTypes: 2_000,
  schemasPerType: 5,
  entriesPerSchema: 10,
} as const;
const AUDIT_BATCH = 20_000;
const AUDIT_ACTIONS = ['note.saved', 'note.created', 'project.created', 'user.signedIn', 'signature.signed'] as const;

/**
 * The lab company at scale, on an already bootstrapped PostgreSQL database: departments, users in them,
 * projects with three participants each, ten notes per project, templates, dropboxes and schema types with their schemas
 * and entries (set-based SQL), and an audit trail of a
 * million records that continues the existing chain, hashed by the server's own `hashOf` so verify can
 * run over it, inserted 20,000 at a time through `unnest`.
 */
export async function buildScaleDataset(url: string, companyCode: string, passwordHash: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`insert into departments (code, company_code, name, sort_order)
              select 'BD' || i, ${companyCode}, 'Bench department ' || i, i from generate_series(1, ${SCALE.departments}) i`;
    await sql`insert into users (user_id, name, password_hash, auth_project, department_code, employee_no, phone)
              select 'member' || i || '@bench.test', 'Member ' || i, ${passwordHash}, true,
                     'BD' || (1 + i % ${SCALE.departments}), 'E' || lpad(i::text, 6, '0'), '010-' || lpad(i::text, 8, '0')
              from generate_series(1, ${SCALE.users}) i`;
    const [{ first }] = await sql<
      [{ first: number }]
    >`select min(user_no)::int as first from users where user_id like 'member%@bench.test'`;
    await sql`insert into projects (title, description, leader_user_no, status, created_at)
              select 'Project ' || i, 'Benchmark project ' || i, ${first} + (i % ${SCALE.users}),
                     case when i % 7 = 0 then 'C' else 'ING' end, now() - (i || ' minutes')::interval
              from generate_series(1, ${SCALE.projects}) i`;
    await sql`insert into project_participants (project_no, user_no)
              select p.project_no, ${first} + ((p.project_no * k * 7) % ${SCALE.users}) from projects p, generate_series(1, 3) k
              on conflict do nothing`;
    await sql`insert into lab_notes (project_no, title, lab_note_number, writer_user_no, created_at)
              select p.project_no, 'Note ' || k, 'LN-BENCH-' || lpad((p.project_no * 100 + k)::text, 9, '0'), p.leader_user_no,
                     p.created_at + (k || ' seconds')::interval
              from projects p, generate_series(1, ${SCALE.notesPerProject}) k`;
    // Templates in every state (a third approved) and dropboxes with their rows, a tenth unused.
    await sql`insert into templates (title, description, author_user_no, state, created_at)
              select 'Template ' || i, 'Benchmark template ' || i, ${first} + (i % ${SCALE.users}),
                     (array['D', 'C', 'A'])[1 + i % 3], now() - (i || ' minutes')::interval
              from generate_series(1, ${SCALE.templates}) i`;
    await sql`insert into dropboxes (title, status, created_by_user_no, updated_by_user_no)
              select 'Dropbox ' || i, case when i % 10 = 0 then 'N' else 'Y' end, ${first}, ${first}
              from generate_series(1, ${SCALE.dropboxes}) i`;
    await sql`insert into dropbox_rows (dropbox_no, position, code, name)
              select d.dropbox_no, k, 'C' || k, 'Value ' || k from dropboxes d, generate_series(1, ${SCALE.dropboxRows}) k`;
    // Schema types (a tenth unused), each with its schemas and their entries.
    await sql`insert into schema_types (code, title, description, status, created_by_user_no, updated_by_user_no)
              select 'ST' || i, 'Schema type ' || i, 'Benchmark catalogue ' || i, case when i % 10 = 0 then 'N' else 'Y' end, ${first}, ${first}
              from generate_series(1, ${SCALE.schemaTypes}) i`;
    await sql`insert into schemas (schemas_type_no, position, title)
              select t.schemas_type_no, k, 'Schema ' || k from schema_types t, generate_series(0, ${SCALE.schemasPerType - 1}) k`;
    await sql`insert into schema_entries (schema_no, position, field, value)
              select s.schema_no, k, 'Field ' || k, 'Value ' || k from schemas s, generate_series(0, ${SCALE.entriesPerSchema - 1}) k`;
    await appendAuditRecords(sql, first);
    await sql`vacuum analyze`;
  } finally {
    await sql.end();
  }
}

/** A million records after the chain's current head, each naming its predecessor's hash. */
async function appendAuditRecords(sql: postgres.Sql, firstUserNo: number): Promise<void> {
  // Spread over the last ~1,000,000 seconds (11 days), milliseconds only, as the column stores them.
  const start = Date.now() - SCALE.auditRecords * 1000;
  await appendAuditChain(sql, SCALE.auditRecords, (seq) => {
    const member = (seq % SCALE.users) + 1;
    return {
      at: new Date(start + seq * 1000),
      actorUserNo: firstUserNo + member - 1,
      actorUserId: `member${member}@bench.test`,
      action: AUDIT_ACTIONS[seq % AUDIT_ACTIONS.length] as string,
      targetType: 'note',
      targetId: String(seq % 100_000),
      before: null,
      after: { version: seq % 50 },
      reason: null,
      clientAddress: `10.0.${seq % 256}.${seq % 200}`,
    };
  });
}

/** What a bench record holds besides its place in the chain. */
export type BenchAuditRecord = Omit<UnhashedRecord, 'seq' | 'rowNo' | 'actionRowNo' | 'prevHash'>;

/**
 * Appends `count` records after the chain's current head, each made by `make` from its seq and naming its
 * predecessor's hash (the server's own `hashOf`, so verify can run over them), 20,000 at a time through `unnest`.
 */
export async function appendAuditChain(
  sql: postgres.Sql,
  count: number,
  make: (seq: number, index: number) => BenchAuditRecord,
): Promise<void> {
  const [head] = await sql<
    Array<{ seq: string; row_no: string; hash: string }>
  >`select seq, row_no, hash from audit_log order by seq desc limit 1`;
  // Each record's place among its action's records, after those already there (see auditLog.actionRowNo).
  const actionRowNos = new Map(
    (await sql<Array<{ action: string; last: string }>>`select action, max(action_row_no) as last from audit_log group by action`).map(
      (row) => [row.action, Number(row.last)],
    ),
  );
  let seq = Number(head?.seq ?? 0);
  let rowNo = Number(head?.row_no ?? 0);
  let prevHash = head?.hash ?? GENESIS_HASH;
  for (let done = 0; done < count; done += AUDIT_BATCH) {
    const columns = {
      seq: [] as number[],
      rowNo: [] as number[],
      actionRowNo: [] as number[],
      at: [] as string[],
      actorNo: [] as Array<number | null>,
      actorId: [] as Array<string | null>,
      action: [] as string[],
      targetType: [] as Array<string | null>,
      targetId: [] as Array<string | null>,
      before: [] as Array<string | null>,
      after: [] as Array<string | null>,
      reason: [] as Array<string | null>,
      address: [] as Array<string | null>,
      prev: [] as string[],
      hash: [] as string[],
    };
    for (let i = 0; i < AUDIT_BATCH && done + i < count; i += 1) {
      seq += 1;
      rowNo += 1;
      const made = make(seq, done + i);
      const actionRowNo = (actionRowNos.get(made.action) ?? 0) + 1;
      actionRowNos.set(made.action, actionRowNo);
      const record: UnhashedRecord = { ...made, seq, rowNo, actionRowNo, prevHash };
      const hash = hashOf(record);
      columns.seq.push(seq);
      columns.rowNo.push(rowNo);
      columns.actionRowNo.push(actionRowNo);
      columns.at.push(record.at.toISOString());
      columns.actorNo.push(record.actorUserNo);
      columns.actorId.push(record.actorUserId);
      columns.action.push(record.action);
      columns.targetType.push(record.targetType);
      columns.targetId.push(record.targetId);
      columns.before.push(record.before === null ? null : JSON.stringify(record.before));
      columns.after.push(record.after === null ? null : JSON.stringify(record.after));
      columns.reason.push(record.reason);
      columns.address.push(record.clientAddress);
      columns.prev.push(prevHash);
      columns.hash.push(hash);
      prevHash = hash;
    }
    await sql`insert into audit_log (seq, row_no, action_row_no, at, actor_user_no, actor_user_id, action, target_type, target_id, before, after, reason, client_address, prev_hash, hash)
              select s, r, ar, a, n, u, ac, tt, t, bf::jsonb, af::jsonb, re, ad, p, h
              from unnest(${sql.array(columns.seq)}::bigint[], ${sql.array(columns.rowNo)}::bigint[], ${sql.array(columns.actionRowNo)}::bigint[], ${sql.array(columns.at)}::timestamptz[], ${sql.array(columns.actorNo as number[])}::int[], ${sql.array(columns.actorId as string[])}::text[],
                          ${sql.array(columns.action)}::text[], ${sql.array(columns.targetType as string[])}::text[], ${sql.array(columns.targetId as string[])}::text[], ${sql.array(columns.before as string[])}::text[], ${sql.array(columns.after as string[])}::text[], ${sql.array(columns.reason as string[])}::text[], ${sql.array(columns.address as string[])}::text[],
                          ${sql.array(columns.prev)}::text[], ${sql.array(columns.hash)}::text[]) as x(s, r, ar, a, n, u, ac, tt, t, bf, af, re, ad, p, h)`;
  }
  await sql`select setval(pg_get_serial_sequence('audit_log', 'seq'), ${seq})`;
}
