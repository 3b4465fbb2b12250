import { bundleSizes } from './bundle.bench.js';
import { capacityBench } from './capacity.bench.js';
import { collabBench } from './collab.bench.js';
import { contentGuardBench } from './contentGuard.bench.js';
import { exportBench } from './export.bench.js';
import { homeAtScaleBench } from './homeAtScale.bench.js';
import { listsAtScaleBench } from './listsAtScale.bench.js';
import { noteHistoryBench } from './noteHistory.bench.js';
import { noteOpenBench } from './noteOpen.bench.js';
import { notificationsBench } from './notifications.bench.js';
import { searchAtScaleBench } from './searchAtScale.bench.js';
import { soakBench } from './soak.bench.js';
import { tempSaveBench } from './tempSave.bench.js';
import { webhooksBench } from './webhooks.bench.js';

/**
 * `npm run bench`: every benchmark, printed as tables. Compare figures within one run only.
 * `npm run bench -- <name>…` runs only the benchmarks whose names contain one of the words given.
 */
const benches: Array<[string, () => Promise<void>]> = [
  ['lists at scale', listsAtScaleBench],
  ['search at scale', searchAtScaleBench],
  ['home at scale', homeAtScaleBench],
  ['live editing', collabBench],
  ['temp save', tempSaveBench],
  ['note history', noteHistoryBench],
  ['content rule guard', contentGuardBench],
  ['client bundle', bundleSizes],
  ['note open in the browser', noteOpenBench],
  ['project export', exportBench],
  ['notifications', notificationsBench],
  ['webhooks', webhooksBench],
  ['capacity', capacityBench],
  ['soak', soakBench],
];

const wanted = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen = benches.filter(([name]) => !wanted.length || wanted.some((word) => name.includes(word)));
if (!chosen.length) throw new Error(`No benchmark matches ${wanted.join(', ')}; there are: ${benches.map(([name]) => name).join(', ')}`);
for (const [name, bench] of chosen) {
  console.log(`\n=== ${name}`);
  await bench();
}
process.exit(0);
