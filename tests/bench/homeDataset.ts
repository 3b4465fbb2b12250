import postgres from 'postgres';
import { appendAuditChain, SCALE, type BenchAuditRecord } from './scaleDataset.js';

/** What the home benchmark adds to the scale dataset (scaleDataset.ts) for one member of 10 projects. */
export const HOME_SCALE = {
  /** Notes the member writes in their projects, besides those the dataset gave their projects. */
  ownNotes: 500,
  /** Signatures asked of the member, on notes others wrote in their projects. */
  requests: 250,
  /** Of the member's own notes, those a signer declined (returned to them). */
  declined: 100,
  /** Checked-in templates the member may approve (the other checked-in ones name the member as a writer). */
  approvals: 100,
  /** The member's own templates sent back to them. */
  returned: 50,
  /** Records each person opened. */
  opensPerUser: 40,
} as const;

/** The member's pending items: the "500 pending items". */
export const HOME_PENDING = HOME_SCALE.requests + HOME_SCALE.declined + HOME_SCALE.approvals + HOME_SCALE.returned;

/**
 * On top of the scale dataset, set-based: every note's writer (and a participant of its project as a
 * co-writer) in note_writers; a pending request of everyone else on most notes (about 280,000); the
 * member's 500 notes (a third never saved, a quarter changed since their version, two fifths awaiting
 * others' signatures), 250 requests asked of them, 100 of their notes declined; checked-in and approved
 * templates with their revisions, 100 the member may approve and 50 of theirs sent back; 40 recent opens
 * a person; and the audit records these leave (notes created and saved, projects closed, templates
 * approved and returned, signatures removed) continuing the chain. Answers the member's user number.
 */
export async function buildHomeDataset(url: string, memberUserId: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [{ member }] = await sql<[{ member: number }]>`select user_no as member from users where user_id = ${memberUserId}`;
    await sql`update users set auth_template = true where user_no = ${member}`;
    const ongoing = sql`(select p.project_no, row_number() over (order by p.project_no) - 1 as i, count(*) over () as n
      from projects p where p.status = 'ING' and (p.leader_user_no = ${member}
        or exists (select 1 from project_participants pp where pp.project_no = p.project_no and pp.user_no = ${member})))`;

    // The member's notes, spread over their projects in progress, and notes others wrote there that ask them to sign.
    await sql`insert into lab_notes (project_no, title, lab_note_number, writer_user_no, status, version, created_at, updated_at)
      select o.project_no, 'Home note ' || k, 'LN-HOME-' || lpad(k::text, 6, '0'), ${member}::int,
        case when k % 5 >= 3 then 'R' else 'W' end, case when k % 3 = 0 then 0 else 1 end,
        now() - (k || ' minutes')::interval, now() - (k || ' minutes')::interval
      from generate_series(1, ${HOME_SCALE.ownNotes}) k join ${ongoing} o on o.i = k % o.n`;
    await sql`insert into lab_notes (project_no, title, lab_note_number, writer_user_no, status, version, created_at, updated_at)
      select o.project_no, 'Asked note ' || k, 'LN-ASKED-' || lpad(k::text, 6, '0'), p.leader_user_no, 'R', 1,
        now() - (k || ' hours')::interval, now() - (k || ' hours')::interval
      from generate_series(1, ${HOME_SCALE.requests}) k join ${ongoing} o on o.i = k % o.n join projects p on p.project_no = o.project_no`;
    await sql`insert into note_drafts (note_no, blocks_key, block_count, saved_by_user_no, saved_at)
      select note_no, 'bench', 0, writer_user_no, now() - (note_no % 1000 || ' seconds')::interval
      from lab_notes where lab_note_number like 'LN-HOME-%' and note_no % 4 = 1 and version > 0`;

    // Writers: every note's creator, and a participant of its project beside them on a third of the notes.
    await sql`insert into note_writers (note_no, user_no, created_at) select note_no, writer_user_no, created_at from lab_notes`;
    await sql`insert into note_writers (note_no, user_no, created_at)
      select n.note_no, pp.user_no, n.created_at from lab_notes n join project_participants pp on pp.project_no = n.project_no
      where (n.note_no + pp.user_no) % 3 = 0 and pp.user_no <> ${member} on conflict do nothing`;

    // Requests: of each participant but the writer on most notes (the member's own besides), the member's 250,
    // and a declining signer on 100 of the member's notes.
    await sql`insert into note_signatures (note_no, user_no, type, status, requested_by_user_no, created_at)
      select n.note_no, pp.user_no, 'participant', 'R', n.writer_user_no, n.created_at + interval '1 hour'
      from lab_notes n join project_participants pp on pp.project_no = n.project_no
      where pp.user_no <> n.writer_user_no and pp.user_no <> ${member} and n.note_no % 10 <> 0
        and (n.writer_user_no <> ${member} or n.status = 'R') on conflict do nothing`;
    await sql`insert into note_signatures (note_no, user_no, type, status, requested_by_user_no, created_at)
      select note_no, ${member}::int, case when note_no % 2 = 0 then 'reviewer' else 'participant' end, 'R', writer_user_no, created_at + interval '1 minute'
      from lab_notes where lab_note_number like 'LN-ASKED-%'`;
    await sql`insert into note_signatures (note_no, user_no, type, status, requested_by_user_no, created_at, signed_at, signature_name, description)
      select n.note_no, p.leader_user_no, 'reviewer', 'F', ${member}::int, n.created_at, n.created_at + interval '2 minutes', 'Leader', 'Add the controls'
      from lab_notes n join projects p on p.project_no = n.project_no
      where n.lab_note_number like 'LN-HOME-%' and n.status = 'W' and p.leader_user_no <> ${member}
      order by n.note_no limit ${HOME_SCALE.declined} on conflict do nothing`;

    // Templates: checked-in and approved ones get their revision; the member wrote in all but 100 of the
    // checked-in ones (so may not approve them), and 50 drafts are theirs, sent back.
    await sql`update templates set revision = 1, approved_revision = case when state = 'A' then 1 end where state in ('C', 'A')`;
    await sql`update templates set author_user_no = ${member}, revision = 1 where template_no in (
      select template_no from templates where state = 'D' order by template_no limit ${HOME_SCALE.returned})`;
    await sql`insert into template_revisions (template_no, revision, blocks, blocks_hash, document_state, checked_by_user_no, checked_at,
        version, approved_by_user_no, approved_at, returned_at, return_reason)
      select t.template_no, 1, '[]', 'bench', '\\x00'::bytea, t.author_user_no, t.created_at,
        case when t.state = 'A' then 1.0 end, case when t.state = 'A' then ${member}::int end, case when t.state = 'A' then t.created_at end,
        case when t.state = 'D' then t.created_at + interval '1 hour' end, case when t.state = 'D' then 'Add the waste step' end
      from templates t where t.revision = 1`;
    await sql`insert into template_writers (template_no, revision, user_no)
      select template_no, 1, ${member}::int from templates where state = 'C' and author_user_no <> ${member}
      order by template_no offset ${HOME_SCALE.approvals}`;

    // Opens: 40 records a person (notes of the dataset, templates, schema types); the member's of their own notes.
    await sql`insert into recent_opens (user_no, kind, record_no, opened_at)
      select u.user_no, (array['note', 'template', 'schema'])[1 + k % 3],
        case k % 3 when 0 then 1 + (u.user_no * 37 + k * 101) % ${SCALE.projects * SCALE.notesPerProject}
          when 1 then 1 + (u.user_no + k) % ${SCALE.templates} else 1 + (u.user_no + k) % ${SCALE.schemaTypes} end,
        now() - ((u.user_no + k) || ' minutes')::interval
      from users u cross join generate_series(1, ${HOME_SCALE.opensPerUser}) k where u.user_no <> ${member} on conflict do nothing`;
    await sql`insert into recent_opens (user_no, kind, record_no, opened_at)
      select ${member}::int, 'note', note_no, now() - (note_no % 3600 || ' seconds')::interval
      from lab_notes where lab_note_number like 'LN-HOME-%' order by note_no limit ${HOME_SCALE.opensPerUser}`;

    await appendHomeRecords(sql, member);
    await sql`vacuum analyze`;
    return member;
  } finally {
    await sql.end();
  }
}

/** The audit records of what the dataset above made: each new note created and saved, closes, approvals, returns, removals. */
async function appendHomeRecords(sql: postgres.Sql, member: number): Promise<void> {
  type Row = { action: string; type: string; id: number; actor: number; at: Date; before: unknown; after: unknown; reason: string | null };
  const rows = await sql<Row[]>`
    select * from (
      select 'note.created' as action, 'note' as type, note_no as id, writer_user_no as actor, created_at as at, null::jsonb as before,
        jsonb_build_object('projectNo', project_no, 'title', title) as after, null as reason
        from lab_notes where lab_note_number like 'LN-HOME-%' or lab_note_number like 'LN-ASKED-%'
      union all select 'note.saved', 'note', note_no, writer_user_no, updated_at, jsonb_build_object('version', 0),
        jsonb_build_object('version', 1), null from lab_notes where (lab_note_number like 'LN-HOME-%' or lab_note_number like 'LN-ASKED-%') and version = 1
      union all select 'project.finished', 'project', project_no, leader_user_no, created_at + interval '1 minute',
        jsonb_build_object('status', 'ING'), jsonb_build_object('status', 'C'), null from projects where status = 'C'
      union all select 'template.approved', 'template', template_no, ${member}::int, created_at,
        jsonb_build_object('state', 'C'), jsonb_build_object('state', 'A', 'version', '1.0'), null from templates where state = 'A'
      union all select 'template.returned', 'template', template_no, 1, created_at + interval '1 hour',
        jsonb_build_object('state', 'C'), jsonb_build_object('state', 'D'), 'Add the waste step' from templates where author_user_no = ${member} and state = 'D'
      union all select 'signature.removed', 'note', n.note_no, p.leader_user_no, n.created_at + interval '2 hours',
        jsonb_build_object('signer', u.user_id, 'meaning', 'reviewer'), jsonb_build_object('noteStatus', 'W'), 'Signed the wrong version'
        from lab_notes n join projects p on p.project_no = n.project_no join users u on u.user_no = p.leader_user_no where n.note_no % 97 = 0
    ) r order by at`;
  const users = new Map(
    (await sql<Array<{ user_no: number; user_id: string }>>`select user_no, user_id from users`).map((u) => [u.user_no, u.user_id]),
  );
  await appendAuditChain(sql, rows.length, (_, index): BenchAuditRecord => {
    const row = rows[index] as Row;
    return {
      at: new Date(row.at),
      actorUserNo: row.actor,
      actorUserId: users.get(row.actor) ?? null,
      action: row.action,
      targetType: row.type,
      targetId: String(row.id),
      before: row.before,
      after: row.after,
      reason: row.reason,
      clientAddress: '10.1.0.1',
    };
  });
}
