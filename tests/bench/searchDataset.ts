import { createHash } from 'node:crypto';
import postgres from 'postgres';
import { vectorLiteral } from '../../server/src/search/tokens.js';
import { attachmentName, labBlock, labReport, labTitle, languageOf, seededRandom, type Language } from './labText.js';

/** What the search benchmark adds to the scale dataset (scaleDataset.ts): every note's words, and attachments. */
export const SEARCH_SCALE = {
  /** Blocks of each note with words, besides its title: 100,000 notes make 1,200,000 block units. */
  blocksPerNote: 12,
  /** Distinct block texts the notes' blocks are drawn from, per 10 notes' worth of languages. */
  blockTexts: 120_000,
  titles: 12_000,
  attachments: 10_000,
  /** Distinct attachment contents (a lab attaches the same SOP or certificate to many notes). */
  attachmentContents: 2_000,
} as const;

const LANGUAGES: Language[] = ['en', 'ko', 'ja'];
/** A note's language by its number, in the shares of labText's languageOf (5 : 3 : 2). */
const NOTE_LANGUAGE_SQL = `(case when n.note_no % 10 < 5 then 'en' when n.note_no % 10 < 8 then 'ko' else 'ja' end)`;
const BATCH = 5_000;

interface Unit {
  text: string;
  vector: string;
}

/** A unit's text and words exactly as the indexer makes them (search/records.ts unitOf): heading (A), then body (D). */
function unitOf(heading: string, body: string): Unit {
  const parts = [
    { text: heading, weight: 'A' as const },
    { text: body, weight: 'D' as const },
  ];
  return {
    text: parts
      .map((part) => part.text)
      .filter(Boolean)
      .join('\n'),
    vector: vectorLiteral(parts),
  };
}

async function insertPool(sql: postgres.Sql, table: string, rows: Array<{ language: Language; unit: Unit }>): Promise<void> {
  await sql.unsafe(`create unlogged table ${table} (language text not null, id int not null, text text not null, vector tsvector not null,
    primary key (language, id))`);
  const next = new Map<Language, number>();
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const ids = batch.map(({ language }) => {
      const id = next.get(language) ?? 0;
      next.set(language, id + 1);
      return id;
    });
    await sql.unsafe(
      `insert into ${table} (language, id, text, vector) select l, i, t, v::tsvector from unnest($1::text[], $2::int[], $3::text[], $4::text[]) as x(l, i, t, v)`,
      [batch.map((row) => row.language), ids, batch.map((row) => row.unit.text), batch.map((row) => row.unit.vector)],
    );
  }
}

/** Rows of a pool with languages in the notes' shares (labText's languageOf). */
function poolRows(count: number, seed: number, make: (random: () => number, language: Language) => Unit) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const language = languageOf(random);
    return { language, unit: make(random, language) };
  });
}

/**
 * The search index of the scale dataset's 100,000 notes, written straight into `search_units` the way the
 * indexer writes it (its words made by search/tokens.ts, so the vectors are the ones the indexer would
 * store): each note a lab title and 12 blocks of Korean, Japanese or English lab text (drawn from pools of
 * distinct texts by set-based SQL), a twentieth of the notes signed and as many awaiting signatures, and
 * 10,000 attachments (their contents extracted, in file_texts and file_text_parts, copied into units as
 * the indexer's fileUnits.ts does). The GIN indexes are dropped while the rows go in and built again
 * after. Answers the units written.
 */
export async function buildSearchDataset(url: string): Promise<{ noteUnits: number; fileUnits: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`set maintenance_work_mem = '256MB'`;
    const ginIndexes = await sql<Array<{ name: string; definition: string }>>`
      select indexname as name, indexdef as definition from pg_indexes where tablename = 'search_units' and indexdef ilike '%using gin%'`;
    for (const index of ginIndexes) await sql.unsafe(`drop index ${index.name}`);

    const titleRandom = seededRandom(46);
    const seen = new Set<string>();
    const titles = LANGUAGES.flatMap((language, l) =>
      Array.from({ length: SEARCH_SCALE.titles / LANGUAGES.length }, () => {
        let title = labTitle(titleRandom, language);
        while (seen.has(title)) title = labTitle(titleRandom, language);
        seen.add(title);
        return { language, unit: unitOf(title, ''), l };
      }),
    );
    await insertPool(sql, 'bench_titles', titles);
    await insertPool(
      sql,
      'bench_blocks',
      poolRows(SEARCH_SCALE.blockTexts, 4601, (random, language) => {
        const { heading, body } = labBlock(random, language);
        return unitOf(heading, body);
      }),
    );
    const poolSizes = `(select language, count(*)::int as size from %s group by language)`;

    // Titles unique in each project: a project's ten notes take ten consecutive titles of their language.
    await sql.unsafe(`update lab_notes set title = t.text
      from (select note_no, project_no, row_number() over (partition by project_no order by note_no) as r from lab_notes) n,
        ${poolSizes.replace('%s', 'bench_titles')} s, bench_titles t
      where lab_notes.note_no = n.note_no and s.language = ${NOTE_LANGUAGE_SQL} and t.language = s.language
        and t.id = (n.project_no * 11 + n.r) % s.size`);
    await sql`update lab_notes set status = case when note_no % 20 = 0 then 'T' when note_no % 20 = 1 then 'R' else 'W' end,
      version = note_no % 5`;

    // Each note's title unit and its blocks, 10,000 notes a statement.
    const [{ last }] = await sql<[{ last: number }]>`select max(note_no)::int as last from lab_notes`;
    for (let from = 0; from <= last; from += 10_000) {
      await sql.unsafe(
        `insert into search_units (kind, record_no, block_uid, project_no, block_order, text, vector, indexed_at)
        select 'note', n.note_no, '', n.project_no, 0, t.text, t.vector, n.created_at
        from lab_notes n join bench_titles t on t.text = n.title and t.language = ${NOTE_LANGUAGE_SQL}
        where n.note_no > $1 and n.note_no <= $2`,
        [from, from + 10_000],
      );
      await sql.unsafe(
        `insert into search_units (kind, record_no, block_uid, project_no, block_order, text, vector, indexed_at)
        select 'note', n.note_no, 'blk' || lpad(n.note_no::text, 9, '0') || lpad(k::text, 4, '0'), n.project_no, k, b.text, b.vector,
          n.created_at + (k || ' seconds')::interval
        from lab_notes n cross join generate_series(1, ${SEARCH_SCALE.blocksPerNote}) k
          join ${poolSizes.replace('%s', 'bench_blocks')} s on s.language = ${NOTE_LANGUAGE_SQL}
          join bench_blocks b on b.language = s.language and b.id = (n.note_no * 13 + k * 7919) % s.size
        where n.note_no > $1 and n.note_no <= $2`,
        [from, from + 10_000],
      );
    }
    await buildAttachments(sql);

    for (const index of ginIndexes) await sql.unsafe(index.definition);
    await sql`drop table bench_titles, bench_blocks, bench_reports`;
    await sql`vacuum analyze`;
    const [counts] = await sql<[{ notes: number; files: number }]>`
      select count(*) filter (where kind = 'note')::int as notes, count(*) filter (where kind = 'file')::int as files from search_units`;
    return { noteUnits: counts.notes, fileUnits: counts.files };
  } finally {
    await sql.end();
  }
}

/**
 * 10,000 attachments on every tenth note (one each), their text extracted: file_texts rows `extracted`
 * before the files (so the extraction trigger finds nothing pending), each content one part, and each
 * file's unit its name (A) before the part's text, as fileUnits.ts copies them.
 */
async function buildAttachments(sql: postgres.Sql): Promise<void> {
  const random = seededRandom(1126);
  const reports = Array.from({ length: SEARCH_SCALE.attachmentContents }, () => {
    const text = labReport(random, languageOf(random));
    const name = attachmentName(random);
    return {
      sha256: createHash('sha256').update(text).digest('hex'),
      text,
      vector: vectorLiteral([{ text, weight: 'D' }]),
      name,
      nameVector: vectorLiteral([{ text: name, weight: 'A' }]),
    };
  });
  await sql`create unlogged table bench_reports (id int primary key, sha256 text not null, name text not null, name_vector tsvector not null)`;
  await sql`insert into bench_reports select i - 1, s, n, v::tsvector
    from unnest(${reports.map((r) => r.sha256)}::text[], ${reports.map((r) => r.name)}::text[], ${reports.map((r) => r.nameVector)}::text[])
      with ordinality as x(s, n, v, i)`;
  await sql`insert into file_texts (sha256, status) select sha256, 'extracted' from bench_reports`;
  await sql`insert into file_text_parts (sha256, part, text, vector)
    select s, 0, t, v::tsvector from unnest(${reports.map((r) => r.sha256)}::text[], ${reports.map((r) => r.text)}::text[], ${reports.map((r) => r.vector)}::text[]) as x(s, t, v)`;
  await sql`insert into files (file_id, note_no, kind, origin_name, extension, mime_type, size, sha256, storage_path, uploaded_by_user_no)
    select gen_random_uuid(), n.note_no, 'file', r.name, split_part(r.name, '.', 2), 'application/octet-stream', 20000, r.sha256,
      'bench/' || n.note_no, n.writer_user_no
    from lab_notes n join bench_reports r on r.id = n.note_no % ${SEARCH_SCALE.attachmentContents}
    where n.note_no % 10 = 3 order by n.note_no limit ${SEARCH_SCALE.attachments}`;
  await sql`insert into search_units (kind, record_no, block_uid, project_no, block_order, text, vector, indexed_at, file_id, file_text)
    select 'file', n.note_no, 'att' || lpad(n.note_no::text, 9, '0') || '#0', n.project_no, ${SEARCH_SCALE.blocksPerNote + 1},
      f.origin_name || E'\n' || p.text, r.name_vector || p.vector, n.created_at, f.file_id, 'extracted'
    from files f join lab_notes n on n.note_no = f.note_no join bench_reports r on r.sha256 = f.sha256
      join file_text_parts p on p.sha256 = f.sha256 and p.part = 0
    where f.storage_path like 'bench/%'`;
}
