/**
 * Which search technique (docs/decisions.md, "Search"): a tsvector of our own words (Latin words and
 * CJK character pairs, server/src/search/tokens.ts) against pg_trgm's trigram index on the raw text, on
 * PGlite and PostgreSQL, over a synthetic set of Korean, Japanese and English blocks. Prints, per engine
 * and technique, each query's median and p99 time (count and first page) and the index's size.
 *
 *   node --import tsx tests/bench/searchTechnique.ts [blocks=30000]
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import postgres from 'postgres';
import { normalise, tokensOf, vectorLiteral, lexeme } from '../../server/src/search/tokens.js';
import { freshPostgres, percentile, printTable } from './database.js';

const BLOCKS = Number(process.argv[2] ?? 30_000);
const RUNS = 40;

const KO = [
  '묽은염산을',
  '넣고',
  '교반하였다',
  '완충액의',
  'pH가',
  '변하였다',
  '시료를',
  '원심분리',
  '상등액을',
  '측정하였다',
  '온도',
  '유지',
  '결과',
  '침전물이',
  '생겼다',
  '희석하여',
  '반응',
];
const JA = [
  '緩衝液を',
  '調製した',
  '試料を',
  '遠心分離し',
  '上清を',
  '測定した',
  '温度を',
  '保持する',
  '沈殿が',
  '生じた',
  '希釈して',
  '反応させた',
  'ピペットで',
  '加えた',
];
const EN = [
  'the',
  'sample',
  'was',
  'diluted',
  'with',
  'buffer',
  'and',
  'centrifuged',
  'pH',
  'drift',
  'observed',
  'after',
  'incubation',
  'propanol',
  '2-propanol',
  'ethanol',
  'mM',
  'NaCl',
  'Tris-HCl',
  'lot',
];

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function blockText(random: () => number): string {
  const words: string[] = [];
  const length = 8 + Math.floor(random() * 30);
  for (let i = 0; i < length; i += 1) {
    const r = random();
    const list = r < 0.4 ? KO : r < 0.7 ? JA : EN;
    words.push(list[Math.floor(random() * list.length)]!);
    if (random() < 0.05) words.push(`${10 + Math.floor(random() * 90)} mM`);
    if (random() < 0.03) words.push(`lot ${20 + Math.floor(random() * 6)}-${100 + Math.floor(random() * 900)}`);
  }
  // Korean and Japanese are often written without spaces between words.
  return words.join(random() < 0.5 ? ' ' : '');
}

/** The tsquery a term is: its words side by side, the last a prefix unless `exact`. */
function termQuery(term: string, exact: boolean): string {
  const words = tokensOf(normalise(term)).map((t) => lexeme(t.word));
  return words.map((w, i) => (i === words.length - 1 && !exact ? `${w}:*` : w)).join(' <-> ');
}

interface Technique {
  name: string;
  setup: string[];
  insert: (id: number, text: string) => [string, unknown[]];
  index: string;
  indexName: string;
  queries: Record<string, string>;
}

function likeOf(term: string): string {
  return `'%${term.replace(/'/g, "''")}%'`;
}

const TERMS = {
  'ko 2 chars': '염산',
  'ja 2 chars': '緩衝',
  'en prefix': 'propan',
  'lot code': '24-117',
  unit: '10 mM',
  phrase: 'ph drift',
};

const techniques: Technique[] = [
  {
    name: 'tsvector (pairs)',
    setup: ['CREATE TABLE b (id int PRIMARY KEY, text text NOT NULL, vector tsvector NOT NULL)'],
    insert: (id, text) => [
      'INSERT INTO b (id, text, vector) VALUES ($1, $2, $3::tsvector)',
      [id, text, vectorLiteral([{ text, weight: 'D' }])],
    ],
    index: 'CREATE INDEX b_vector ON b USING gin (vector)',
    indexName: 'b_vector',
    queries: Object.fromEntries(
      Object.entries(TERMS).map(([name, term]) => {
        const query = name === 'phrase' || name === 'unit' ? termQuery(term, true) : termQuery(term, false);
        return [
          name,
          `SELECT id, count(*) OVER () FROM b WHERE vector @@ '${query.replace(/'/g, "''")}'::tsquery ORDER BY ts_rank(vector, '${query.replace(/'/g, "''")}'::tsquery) DESC, id DESC LIMIT 20`,
        ];
      }),
    ),
  },
  {
    name: 'pg_trgm',
    setup: ['CREATE EXTENSION IF NOT EXISTS pg_trgm', 'CREATE TABLE b (id int PRIMARY KEY, text text NOT NULL)'],
    insert: (id, text) => ['INSERT INTO b (id, text) VALUES ($1, $2)', [id, text]],
    index: 'CREATE INDEX b_trgm ON b USING gin (text gin_trgm_ops)',
    indexName: 'b_trgm',
    queries: Object.fromEntries(
      Object.entries(TERMS).map(([name, term]) => [
        name,
        `SELECT id, count(*) OVER () FROM b WHERE text ILIKE ${likeOf(term)} ORDER BY similarity(text, '${term}') DESC, id DESC LIMIT 20`,
      ]),
    ),
  },
];

interface Engine {
  name: string;
  exec: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;
  close: () => Promise<void>;
}

async function pglite(): Promise<Engine> {
  const db = new PGlite({ extensions: { pg_trgm } });
  return {
    name: 'PGlite',
    exec: async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
    close: () => db.close(),
  };
}

async function postgresEngine(): Promise<Engine> {
  const fresh = await freshPostgres();
  const client = postgres(fresh.url, { max: 1, onnotice: () => undefined });
  return {
    name: 'PostgreSQL',
    exec: async (sql, params) => await client.unsafe(sql, (params ?? []) as never[]),
    close: async () => {
      await client.end();
      await fresh.drop();
    },
  };
}

const texts = Array.from({ length: BLOCKS }, (_, i) => blockText(seeded(i + 1)));
const rows: Array<Record<string, string | number>> = [];
for (const open of [pglite, postgresEngine]) {
  for (const technique of techniques) {
    const engine = await open();
    for (const statement of technique.setup) await engine.exec(statement);
    let started = performance.now();
    for (let id = 0; id < texts.length; id += 1) {
      const [statement, params] = technique.insert(id, texts[id]!);
      await engine.exec(statement, params);
    }
    const insertMs = performance.now() - started;
    started = performance.now();
    await engine.exec(technique.index);
    const indexMs = performance.now() - started;
    await engine.exec('ANALYZE b');
    const [size] = await engine.exec(`SELECT pg_relation_size('${technique.indexName}') AS index, pg_total_relation_size('b') AS total`);
    for (const [name, sql] of Object.entries(technique.queries)) {
      const times: number[] = [];
      let found = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const t = performance.now();
        const result = await engine.exec(sql);
        times.push(performance.now() - t);
        found = Number(result[0]?.count ?? 0);
      }
      times.sort((a, b) => a - b);
      rows.push({
        engine: engine.name,
        technique: technique.name,
        query: name,
        found,
        'median ms': Number(percentile(times, 50).toFixed(2)),
        'p99 ms': Number(percentile(times, 99).toFixed(2)),
        'index MB': Number((Number(size!.index) / 1e6).toFixed(1)),
        'table+index MB': Number((Number(size!.total) / 1e6).toFixed(1)),
        'insert s': Number((insertMs / 1000).toFixed(1)),
        'build index s': Number((indexMs / 1000).toFixed(1)),
      });
    }
    await engine.close();
  }
}
printTable(`Search techniques over ${BLOCKS} blocks (${RUNS} runs each)`, rows);
