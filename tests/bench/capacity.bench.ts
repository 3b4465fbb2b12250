import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from '@eln/shared';
import type { CapacityJob, CapacityReply, CapacityRequest, EditorSeat, TypingResult } from './capacityEditors.js';
import { BENCH_USER_PASSWORD, capacityDataset, type CapacityDataset } from './capacityDataset.js';
import type { LoopFigures, ServerMemory, ServerReply, ServerRequest } from './capacityServer.js';
import { callOver } from './calls.js';
import { percentile, postgresCpuMs, printTable } from './database.js';
import { ForkedHelper } from './forked.js';

/**
 * What one server process carries: steps of open notes and connected editors (BENCH_CAPACITY_STEPS,
 * `notes x editors` separated by commas), each on a fresh server process of ours on PostgreSQL and of
 * bare Hocuspocus. The notes are held open by keepers (bare connections, many notes to a socket, see
 * capacityEditors.ts); then the editors connect, two to a note, each a provider on its own socket with
 * presence, in processes of their own; one in ten types a keystroke every 200 ms for
 * BENCH_CAPACITY_SECONDS, moving its cursor in presence each time, and the other editor of its note
 * measures when each keystroke arrives and when it is confirmed stored. The server's memory is read
 * after two full collections: after start, with the notes open, with the editors connected; so a note's
 * and an editor's cost are the differences, divided. The knee is the first step whose durable p99 passes
 * 200 ms. BENCH_CAPACITY_PROFILE=<notes>x<editors> writes a CPU profile of our server at that step.
 */

/** Editors open notes in pairs, on the first notes. */
const EDITORS_PER_NOTE = 2;

interface Step {
  notes: number;
  editors: number;
}

const parseSteps = (text: string): Step[] =>
  text.split(',').map((step) => {
    const [notes, editors] = step.split('x').map(Number);
    if (!Number.isInteger(notes) || !Number.isInteger(editors) || editors! < 2 || editors! > notes! * EDITORS_PER_NOTE)
      throw new Error(`BENCH_CAPACITY_STEPS: "${step}" is not <notes>x<editors> (editors at least 2, at most ${EDITORS_PER_NOTE} a note)`);
    return { notes: notes!, editors: editors! };
  });

const STEPS = parseSteps(process.env.BENCH_CAPACITY_STEPS ?? '100x50,500x200,500x500,500x1000,2000x1000');
const TYPING_MS = 1000 * Number(process.env.BENCH_CAPACITY_SECONDS ?? 20);
/** A keystroke every 200 ms: a typist at 60 words a minute. */
const TYPING_INTERVAL_MS = 200;
const TYPING_SHARE = 0.1;
/** Processes the editors are spread over, niced so that their CPU yields to the server's and the readers'. */
const EDITOR_PROCESSES = 3;
const EDITOR_NICENESS = 10;
const NOTES_PER_KEEPER_SOCKET = 50;
const KNEE_DURABLE_P99_MS = 200;
const GOAL = { notes: 500, editors: 1000, durableP99Ms: 200, rssMb: 1024 };
/** Members of the benchmark's project: the editors' accounts, taken in turn. */
const USERS = 20;
const PROFILE_STEP = process.env.BENCH_CAPACITY_PROFILE;

const CLIENTS_MODULE = fileURLToPath(new URL('./capacityEditors.ts', import.meta.url));
const SERVER_MODULE = fileURLToPath(new URL('./capacityServer.ts', import.meta.url));

/** A forked process of keepers, editors or readers (capacityEditors.ts). */
export class ClientsProcess extends ForkedHelper<CapacityRequest, CapacityReply> {
  constructor(niceness = 0) {
    super(CLIENTS_MODULE, niceness);
  }

  async open(job: CapacityJob): Promise<void> {
    await this.ask({ type: 'open', job }, 'opened');
  }

  async type(durationMs: number): Promise<number> {
    return (await this.ask({ type: 'type', durationMs, typingIntervalMs: TYPING_INTERVAL_MS }, 'result')).result.sent;
  }

  async collect(expected: number, timeoutMs: number): Promise<TypingResult> {
    return (await this.ask({ type: 'collect', expected, timeoutMs }, 'result')).result;
  }

  override close(): Promise<void> {
    return super.close({ type: 'close' });
  }
}

/** The server under load in a forked process of its own (capacityServer.ts), with its garbage collector exposed. */
export class ServerProcess extends ForkedHelper<ServerRequest, ServerReply> {
  constructor(nodeFlags: string[] = []) {
    super(SERVER_MODULE, 0, ['--expose-gc', ...nodeFlags]);
  }

  async start(mode: 'ours' | 'bare', databaseUrl: string, dataDir: string): Promise<{ wsUrl: string; httpUrl: string }> {
    return this.ask({ type: 'start', mode, databaseUrl, dataDir }, 'started');
  }

  async memory(): Promise<ServerMemory> {
    return (await this.ask({ type: 'memory' }, 'memory')).memory;
  }

  async loopStart(): Promise<void> {
    await this.ask({ type: 'loop-start' }, 'loop');
  }

  async loopStop(): Promise<LoopFigures> {
    return (await this.ask({ type: 'loop-stop' }, 'loop')).loop!;
  }

  /** Writes a heap snapshot; answers its file and what it left in RSS. */
  async heapSnapshot(file: string): Promise<{ file: string; residue: number }> {
    const { file: written, rssBefore, rssAfter } = await this.ask({ type: 'heap-snapshot', file }, 'snapshot');
    return { file: written, residue: rssAfter - rssBefore };
  }

  override close(): Promise<void> {
    return super.close({ type: 'close' });
  }
}

/** An access token for each of the dataset's users, from our server (bare Hocuspocus takes any). */
export async function signInAll(httpUrl: string, userIds: string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const userId of userIds)
    tokens.push((await callOver(httpUrl, api.auth.signIn, { userId, password: BENCH_USER_PASSWORD })).accessToken);
  return tokens;
}

interface StepFigures {
  start: ServerMemory;
  notesOpen: ServerMemory;
  editorsOn: ServerMemory;
  loop: LoopFigures;
  sent: number;
  measured: TypingResult;
  /** Over the typing: PostgreSQL's CPU in cores (null: none to read), and how busy the machine's cores were (every process, 0–1). */
  postgresCores: number | null;
  machineBusy: number;
}

/** The machine's busy and total CPU ticks so far (/proc/stat's first line), to tell how loaded it was. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** The editors' seats: two to a note on the first notes; the first of a note's editors types on the first tenth of the editors' notes. */
function seats(editors: number, names: string[], tokens: string[]): { editing: EditorSeat[]; reading: EditorSeat[] } {
  const typists = Math.max(1, Math.round(editors * TYPING_SHARE));
  const editing: EditorSeat[] = [];
  const reading: EditorSeat[] = [];
  for (let seat = 0; seat < editors; seat += 1) {
    const note = Math.floor(seat / EDITORS_PER_NOTE) % names.length;
    const first = seat % EDITORS_PER_NOTE === 0;
    const typedIn = note < typists;
    const placed = { name: names[note]!, token: tokens[seat % tokens.length]!, typing: typedIn && first };
    (typedIn && seat % EDITORS_PER_NOTE === 1 ? reading : editing).push(placed);
  }
  return { editing, reading };
}

/**
 * Editors on notes, two to a note on the first notes, in processes of their own: the typists and the
 * idle ones niced, the readers (the typists' partners, which measure) not.
 */
export class EditorCrowd {
  private readonly readers = new ClientsProcess();
  private readonly editors = Array.from({ length: EDITOR_PROCESSES }, () => new ClientsProcess(EDITOR_NICENESS));

  constructor(private readonly durable: boolean) {}

  async open(wsUrl: string, editors: number, names: string[], tokens: string[]): Promise<void> {
    const { editing, reading } = seats(editors, names, tokens);
    const { durable } = this;
    await this.readers.open({ role: 'readers', url: wsUrl, seats: reading, durable });
    await Promise.all(
      this.editors.map((process, p) =>
        process.open({ role: 'editors', url: wsUrl, seats: editing.filter((_, i) => i % EDITOR_PROCESSES === p), durable }),
      ),
    );
  }

  /** The typists type for `ms`; throws unless every keystroke arrived (and, when durable, was confirmed). */
  async type(ms: number, label: string): Promise<{ sent: number; measured: TypingResult }> {
    const sent = (await Promise.all(this.editors.map((process) => process.type(ms)))).reduce((sum, count) => sum + count, 0);
    const measured = await this.readers.collect(sent, 60_000);
    if (measured.propagation.length !== sent || (this.durable && measured.durable.length !== sent))
      throw new Error(`${label}: ${sent} keystrokes sent, ${measured.propagation.length} arrived, ${measured.durable.length} confirmed`);
    return { sent, measured };
  }

  async close(): Promise<void> {
    await Promise.all([this.readers, ...this.editors].map((child) => child.close()));
  }

  kill(): void {
    for (const child of [this.readers, ...this.editors]) child.kill();
  }
}

async function runStep(mode: 'ours' | 'bare', step: Step, dataset: CapacityDataset): Promise<StepFigures> {
  const profiled = mode === 'ours' && PROFILE_STEP === `${step.notes}x${step.editors}`;
  const profileDir = path.join(tmpdir(), `eln-capacity-profile-${step.notes}x${step.editors}`);
  const server = new ServerProcess(profiled ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  const keepers = new ClientsProcess();
  const crowd = new EditorCrowd(mode === 'ours');
  try {
    const { wsUrl, httpUrl } = await server.start(mode, dataset.databaseUrl, dataset.dataDir);
    const tokens = mode === 'ours' ? await signInAll(httpUrl, dataset.userIds) : ['token'];
    const names = dataset.notes.slice(0, step.notes).map((note) => note.name);
    const start = await server.memory();
    await keepers.open({
      role: 'keepers',
      url: wsUrl,
      notes: names.map((name, i) => ({ name, token: tokens[i % tokens.length]! })),
      notesPerSocket: NOTES_PER_KEEPER_SOCKET,
    });
    const notesOpen = await server.memory();
    await crowd.open(wsUrl, step.editors, names, tokens);
    const editorsOn = await server.memory();
    await server.loopStart();
    const machineBefore = machineTicks();
    const postgresBefore = postgresCpuMs();
    const { sent, measured } = await crowd.type(TYPING_MS, `${mode} at ${step.notes}x${step.editors}`);
    const loop = await server.loopStop();
    const postgresAfter = postgresCpuMs();
    const machineAfter = machineTicks();
    const postgresCores = postgresBefore === null || postgresAfter === null ? null : (postgresAfter - postgresBefore) / loop.wallMs;
    const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    await crowd.close();
    await keepers.close();
    await server.close();
    if (profiled) console.log(`CPU profile of our server at ${step.notes}x${step.editors}: ${profileDir}`);
    return { start, notesOpen, editorsOn, loop, sent, measured, postgresCores, machineBusy };
  } finally {
    crowd.kill();
    keepers.kill();
    server.kill();
  }
}

const p99 = (values: number[]) =>
  values.length
    ? Number(
        percentile(
          [...values].sort((a, b) => a - b),
          99,
        ).toFixed(1),
      )
    : Number.NaN;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const kb = (bytes: number) => Math.round(bytes / 1024);

function row(mode: 'ours' | 'bare', step: Step, figures: StepFigures, bare: StepFigures | null): Record<string, string | number> {
  const { start, notesOpen, editorsOn, loop, measured } = figures;
  const cores = loop.cpuMs / loop.wallMs;
  return {
    step: `${step.notes}x${step.editors}`,
    server: mode,
    'notes/sockets': `${editorsOn.documents}/${editorsOn.connections}`,
    'RSS MB': mb(editorsOn.rss),
    'heap MB': mb(editorsOn.heapUsed),
    'per note kB RSS/heap': `${kb((notesOpen.rss - start.rss) / step.notes)}/${kb((notesOpen.heapUsed - start.heapUsed) / step.notes)}`,
    'per editor kB RSS/heap': `${kb((editorsOn.rss - notesOpen.rss) / step.editors)}/${kb((editorsOn.heapUsed - notesOpen.heapUsed) / step.editors)}`,
    keystrokes: figures.sent,
    'loop p99/max ms': `${loop.p99Ms.toFixed(1)}/${loop.maxMs.toFixed(0)}`,
    'durable p99 ms': mode === 'ours' ? p99(measured.durable) : '-',
    'prop p99 ms': p99(measured.propagation),
    'prop p99 bare ms': bare ? p99(bare.measured.propagation) : '-',
    'CPU cores server/PostgreSQL': `${cores.toFixed(2)}/${figures.postgresCores?.toFixed(2) ?? '-'}`,
    'machine busy': `${Math.round(figures.machineBusy * 100)}%`,
    'editors/core': Math.round(step.editors / Math.max(cores, 0.01)),
  };
}

export async function capacityBench(): Promise<void> {
  const mostNotes = Math.max(...STEPS.map((step) => step.notes));
  const built = performance.now();
  const dataset = await capacityDataset(mostNotes, USERS);
  console.log(
    `dataset: ${mostNotes} notes of 20 blocks (one a 10 x 10 table), ${USERS} users, built in ${((performance.now() - built) / 1000).toFixed(0)} s`,
  );
  try {
    const rows: Array<Record<string, string | number>> = [];
    let knee: string | null = null;
    let goal: Record<string, string | number> | null = null;
    for (const step of STEPS) {
      const bare = await runStep('bare', step, dataset);
      const ours = await runStep('ours', step, dataset);
      rows.push(row('bare', step, bare, null), row('ours', step, ours, bare));
      const durableP99 = p99(ours.measured.durable);
      if (!knee && durableP99 > KNEE_DURABLE_P99_MS) knee = `${step.notes}x${step.editors} (durable p99 ${durableP99} ms)`;
      if (step.notes === GOAL.notes && step.editors === GOAL.editors)
        goal = {
          step: `${step.notes}x${step.editors}`,
          'durable p99 ms': durableP99,
          'RSS MB': mb(ours.editorsOn.rss),
          goal: `durable p99 ≤ ${GOAL.durableP99Ms} ms, RSS ≤ ${GOAL.rssMb} MB`,
          met: durableP99 <= GOAL.durableP99Ms && mb(ours.editorsOn.rss) <= GOAL.rssMb ? 'yes' : 'NO',
        };
    }
    printTable(
      `Capacity of one server process (PostgreSQL; memory after two full collections; per note = (notes open − start) ÷ notes, with each note's keeper connection; per editor = (editors on − notes open) ÷ editors; ${EDITORS_PER_NOTE} editors a note, ${TYPING_SHARE * 100}% typing a keystroke every ${TYPING_INTERVAL_MS} ms for ${TYPING_MS / 1000} s with a cursor move in presence each; loop delay and CPU over the typing; editors/core = editors ÷ the server's CPU in cores; machine busy = every process's CPU over both cores, the editors' processes and others' work included)`,
      rows,
    );
    console.log(`knee (first step with durable p99 > ${KNEE_DURABLE_P99_MS} ms): ${knee ?? 'none among these steps'}`);
    if (goal) printTable(`Goal: ${GOAL.editors} editors on ${GOAL.notes} notes in one process`, [goal]);
    console.log(
      'Anchors: a Hocuspocus process carried 1,500 clients in 500 rooms at p99 broadcast 3.2 ms, limited by memory, not CPU (CasualOffice load test, 2026); y-websocket holds ~100 kB per small loaded document. Compare "per note" and the bare rows.',
    );
  } finally {
    await dataset.drop();
  }
}
