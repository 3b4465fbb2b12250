import { bundleSizes } from './bundle.bench.js';
import { collabBench } from './collab.bench.js';
import { contentGuardBench } from './contentGuard.bench.js';
import { projectListBench } from './projectList.bench.js';

/** `npm run bench`: every benchmark, printed as tables. Compare figures within one run only. */
const benches: Array<[string, () => Promise<void>]> = [
  ['project list', projectListBench],
  ['live editing', collabBench],
  ['content rule guard', contentGuardBench],
  ['client bundle', bundleSizes],
];

for (const [name, bench] of benches) {
  console.log(`\n=== ${name}`);
  await bench();
}
process.exit(0);
