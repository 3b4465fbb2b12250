import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file stored below `dir` (uploads and their small copies), to show a refusal kept none. */
export async function storedFilesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(full);
    }
  };
  await walk(dir);
  return found;
}
