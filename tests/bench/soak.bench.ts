import { rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '@eln/shared';
import { ClientsProcess, EditorCrowd, ServerProcess, signInAll } from './capacity.bench.js';
import { callOver } from './calls.js';
import { BENCH_USER_PASSWORD, capacityDataset } from './capacityDataset.js';
import type { ServerMemory } from './capacityServer.js';
import { printTable } from './database.js';
import { summarizeHeapSnapshot, topGrowth } from './heapSnapshots.js';

/**
 * A day of use in a quarter of an hour: one server process on PostgreSQL (its own process, its memory
 * read alone) opens and closes BENCH_SOAK_NOTES notes (10,000) in BENCH_SOAK_WAVES waves (10). In each
 * wave editors connect to some of the wave's notes (two to a note, one in ten typing for a few seconds),
 * versions are saved and signed while they are connected, the export project is exported, the editors
 * leave, and then every note of the wave is opened and closed by keepers, a batch at a time. After each
 * wave, once the server holds no document and no connection, its memory is read after two full
 * collections; the goal is RSS after the last wave within 10% of after the first (of after the third
 * with heap snapshots: the first snapshot leaves several hundred MB in RSS for good, settling over the
 * next two waves). Heap snapshots after the first and the last wave are compared by constructor. No
 * wave starts that would end past 14 minutes (the dataset included), so the soak ends within 15.
 */
const NOTES = Number(process.env.BENCH_SOAK_NOTES ?? 10_000);
const WAVES = Number(process.env.BENCH_SOAK_WAVES ?? 10);
const EDITORS = Number(process.env.BENCH_SOAK_EDITORS ?? 200);
/** BENCH_SOAK_SNAPSHOTS=0 takes no heap snapshot (and compares RSS from the first wave on). */
const SNAPSHOTS = process.env.BENCH_SOAK_SNAPSHOTS !== '0';
/** Waves before RSS is compared: with snapshots, the first's residue settles over the next two (see soakBench). */
const BASELINE_WAVE = SNAPSHOTS ? 2 : 0;
if (!Number.isInteger(NOTES / WAVES) || NOTES / WAVES < EDITORS / 2 || WAVES < BASELINE_WAVE + 2)
  throw new Error(
    'BENCH_SOAK_NOTES must be a multiple of BENCH_SOAK_WAVES, with at least BENCH_SOAK_EDITORS / 2 notes a wave, and 4 waves at least (2 without snapshots)',
  );
const TYPING_MS = 5_000;
const KEEPER_BATCH = 250;
const SAVES_PER_WAVE = 5;
const SIGNS_PER_WAVE = 2;
const EXPORT_NOTES = 5;
/** No wave starts that would end past this: the last snapshot and its comparison take the rest of the 15 minutes. */
const LIMIT_MS = 14 * 60_000;
const GROWTH_GOAL = 0.1;
const USERS = 20;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Waits until the server has unloaded every document and dropped every connection (30 s at most), then reads its memory. */
async function settledMemory(server: ServerProcess): Promise<ServerMemory> {
  for (let tries = 0; ; tries += 1) {
    const memory = await server.memory();
    if ((memory.documents === 0 && memory.connections === 0) || tries === 30) return memory;
    await sleep(1000);
  }
}

/** Saves the first notes' versions and signs some, with their editors connected (a signature locks the note for them). */
async function saveAndSign(httpUrl: string, tokens: string[], userIds: string[], labNoteNos: number[]): Promise<void> {
  for (const [i, labNoteNo] of labNoteNos.slice(0, SAVES_PER_WAVE).entries()) {
    await callOver(httpUrl, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, tokens[0]);
    if (i >= SIGNS_PER_WAVE) continue;
    await callOver(httpUrl, api.signatures.request, { labNoteNo, signers: [{ userId: userIds[1]!, type: 'reviewer' }] }, tokens[0]);
    await callOver(
      httpUrl,
      api.signatures.respond,
      { labNoteNo, status: 'T', password: BENCH_USER_PASSWORD, name: 'Editor 1', timeZone: 'Asia/Seoul' },
      tokens[1],
    );
  }
}

/** Exports the export project as .eln through the job queue and waits for it. */
async function exportProject(httpUrl: string, token: string, projectNo: number): Promise<void> {
  const [job] = (await callOver(httpUrl, api.exports.create, { format: 'eln', projectNos: [projectNo] }, token)).list;
  for (;;) {
    const current = await callOver(httpUrl, api.exports.detail, { jobId: job!.jobId }, token);
    if (current.status === 'done') return;
    if (current.status === 'failed') throw new Error(`export failed: ${current.errorCode}`);
    await sleep(200);
  }
}

/** Every note of the wave opened and closed, KEEPER_BATCH at a time; answers the ms the openings took (loaded and synced). */
async function openAndClose(wsUrl: string, names: string[], tokens: string[]): Promise<number> {
  let openingMs = 0;
  for (let i = 0; i < names.length; i += KEEPER_BATCH) {
    const keepers = new ClientsProcess();
    try {
      const notes = names.slice(i, i + KEEPER_BATCH).map((name, k) => ({ name, token: tokens[k % tokens.length]! }));
      const began = performance.now();
      await keepers.open({ role: 'keepers', url: wsUrl, notes, notesPerSocket: 50 });
      openingMs += performance.now() - began;
      await keepers.close();
    } finally {
      keepers.kill();
    }
  }
  return openingMs;
}

export async function soakBench(): Promise<void> {
  const began = performance.now();
  const dataset = await capacityDataset(NOTES, USERS, EXPORT_NOTES);
  console.log(
    `dataset: ${NOTES} notes and an export project of ${EXPORT_NOTES}, built in ${((performance.now() - began) / 1000).toFixed(0)} s`,
  );
  const server = new ServerProcess();
  const snapshots: string[] = [];
  /** What the first snapshot left in RSS right after it (it grows a little more later). */
  let residue = 0;
  try {
    const { wsUrl, httpUrl } = await server.start('ours', dataset.databaseUrl, dataset.dataDir);
    const perWave = NOTES / WAVES;
    const wavesBegan = performance.now();
    const rows: Array<Record<string, string | number>> = [];
    const after: ServerMemory[] = [];
    for (let wave = 0; wave < WAVES; wave += 1) {
      const waveBegan = performance.now();
      // Another wave takes about as long as the average one so far.
      if (wave > BASELINE_WAVE + 1 && waveBegan - began + (waveBegan - wavesBegan) / wave > LIMIT_MS) {
        console.log(`stopped after ${wave} waves: another would end past 14 minutes`);
        break;
      }
      const tokens = await signInAll(httpUrl, dataset.userIds);
      const notes = dataset.notes.slice(wave * perWave, (wave + 1) * perWave);
      const names = notes.map((note) => note.name);
      const crowd = new EditorCrowd(true);
      let keystrokes = 0;
      try {
        await crowd.open(wsUrl, EDITORS, names, tokens);
        keystrokes = (await crowd.type(TYPING_MS, `soak wave ${wave + 1}`)).sent;
        await saveAndSign(
          httpUrl,
          tokens,
          dataset.userIds,
          notes.map((note) => note.labNoteNo),
        );
        await exportProject(httpUrl, tokens[0]!, dataset.exportProjectNo!);
        await crowd.close();
      } finally {
        crowd.kill();
      }
      const openingMs = await openAndClose(wsUrl, names, tokens);
      const memory = await settledMemory(server);
      after.push(memory);
      rows.push({
        wave: wave + 1,
        'notes opened': perWave,
        'ms a note opened': Number((openingMs / perWave).toFixed(1)),
        editors: EDITORS,
        keystrokes,
        'saved/signed': `${SAVES_PER_WAVE}/${SIGNS_PER_WAVE}`,
        'documents/sockets left': `${memory.documents}/${memory.connections}`,
        'RSS MB': mb(memory.rss),
        'heap used/total MB': `${mb(memory.heapUsed)}/${mb(memory.heapTotal)}`,
        'external MB': mb(memory.external),
        s: Math.round((performance.now() - waveBegan) / 1000),
      });
      // After the memory reading: the snapshot's own allocations are not counted in it.
      if (wave === 0 && SNAPSHOTS) {
        const first = await server.heapSnapshot(path.join(dataset.dataDir, 'first-wave.heapsnapshot'));
        snapshots.push(first.file);
        residue = first.residue;
      }
    }
    if (SNAPSHOTS) snapshots.push((await server.heapSnapshot(path.join(dataset.dataDir, 'last-wave.heapsnapshot'))).file);
    await server.close();
    printTable(
      `Soak: ${NOTES} notes opened and closed in ${WAVES} waves (${perWave} a wave, ${KEEPER_BATCH} at a time), ${EDITORS} editors connecting and leaving each wave (10% typing ${TYPING_MS / 1000} s), ${SAVES_PER_WAVE} versions saved and ${SIGNS_PER_WAVE} signed and one .eln export a wave; memory of the server process after each wave, once idle, after two full collections`,
      rows,
    );
    const first = after[BASELINE_WAVE]!;
    const last = after.at(-1)!;
    const growth = (last.rss - first.rss) / first.rss;
    printTable('Soak goal', [
      {
        [`RSS after wave ${BASELINE_WAVE + 1} MB`]: mb(first.rss),
        [`after wave ${after.length} MB`]: mb(last.rss),
        growth: `${(growth * 100).toFixed(1)}%`,
        'heap used after wave 1/last MB': `${mb(after[0]!.heapUsed)}/${mb(last.heapUsed)}`,
        'left by the first snapshot MB': SNAPSHOTS ? mb(residue) : '-',
        goal: `within ${GROWTH_GOAL * 100}%`,
        met: Math.abs(growth) <= GROWTH_GOAL ? 'yes' : 'NO',
      },
    ]);
    if (SNAPSHOTS)
      printTable(
        'Heap, first wave → last wave: the constructors that grew most (self size; "(type)" for closures, arrays, strings and code)',
        topGrowth(summarizeHeapSnapshot(snapshots[0]!), summarizeHeapSnapshot(snapshots[1]!), 15),
      );
  } finally {
    server.kill();
    for (const file of snapshots) rmSync(file, { force: true });
    await dataset.drop();
  }
}
