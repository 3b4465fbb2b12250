import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.js';
import { openDatabase, type Db } from '../db/client.js';
import { queueEverything, SearchIndexer, type IndexerLog } from './indexer.js';

/**
 * Rebuilds the search index: queues every note and record (and every record the index holds, so rows of
 * records gone are removed), then indexes the queue until it is empty, printing progress. Running servers
 * may share the work meanwhile (the queue and its locks are theirs too). Answers the documents that failed.
 */
export async function rebuildSearchIndex(db: Db, print: (line: string) => void, log: IndexerLog): Promise<string[]> {
  const total = await queueEverything(db);
  print(`search:rebuild: ${total} notes and records queued`);
  let lastShown = -1;
  const failed = await new SearchIndexer(db, log).indexAll((left) => {
    const done = total - Math.min(left, total);
    const percent = total ? Math.floor((done * 100) / total) : 100;
    if (percent === lastShown) return;
    lastShown = percent;
    print(`search:rebuild: ${done} of ${total} indexed (${percent} %)`);
  });
  if (failed.length) print(`search:rebuild: ${failed.length} could not be indexed and stay queued: ${failed.slice(0, 20).join(', ')}`);
  else print('search:rebuild: done');
  return failed;
}

/** `npm run search:rebuild`, on the configured database. With the embedded database, stop the server first (PGlite allows one process). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    const log: IndexerLog = {
      warn: (details, message) => console.warn(message, details),
      error: (details, message) => console.error(message, details),
    };
    const failed = await rebuildSearchIndex(database.db, (line) => console.log(line), log);
    if (failed.length) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error('search:rebuild failed:', error);
    process.exit(1);
  });
}
