import { formatZonedTime, type Language } from '@eln/shared';
import type { StoredStamp } from '../../timestamps/queue.js';
import { timeStampResponseOf } from '../../timestamps/tsp.js';
import type { Ref } from './crate.js';
import { elnMessage } from './messages.js';

/*
 * The evidence an inspector checks a record's trusted time-stamp with offline, inside the .eln archive:
 * for each stamped signature and archived version, the exact bytes stamped (.json), the authority's
 * answer (.tsr) and the chain this notebook trusted for it (.pem), and one README.txt (in the archive's
 * language) with the `openssl ts -verify` command for each. A pending or failed stamp is listed as such.
 */

/** The README's name in the archive's root folder. */
export const TIMESTAMPS_README = 'README.txt';
/** The folder in each note's folder that holds its time-stamps' files. */
export const TIMESTAMPS_FOLDER = 'timestamps/';

/** What the archive writer lends: adding an entry at a path relative to the root folder, described in the crate. */
export type AddFile = (relative: string, bytes: Uint8Array, description: string, encodingFormat: string) => Promise<Ref>;

/** One record's stamp, as the README lists it. */
interface ReadmeEntry {
  what: string;
  line: string;
  command: string | null;
}

/** Gathers a whole archive's time-stamp files and the README lines that check them. */
export class TimestampEvidence {
  private readonly entries: ReadmeEntry[] = [];

  constructor(
    private readonly lang: Language,
    private readonly timeZone: string,
  ) {}

  /**
   * Writes one record's files under `folder` (a note's folder, relative to the root) as `name`.json/.tsr
   * and `name`-chain.pem, and notes its README line; answers the files written (none while pending or failed).
   */
  async add(add: AddFile, folder: string, name: string, what: string, stamp: StoredStamp): Promise<Ref[]> {
    if (stamp.status !== 'stamped' || !stamp.token || !stamp.chainPem) {
      this.entries.push({ what, line: elnMessage(stamp.status === 'failed' ? 'stampFailed' : 'stampPending', this.lang), command: null });
      return [];
    }
    const base = `${folder}${TIMESTAMPS_FOLDER}${name}`;
    const files = { data: `${base}.json`, token: `${base}.tsr`, chain: `${base}-chain.pem` };
    const refs = [
      await add(files.data, stamp.subject, elnMessage('stampData', this.lang, { what }), 'application/json'),
      await add(
        files.token,
        timeStampResponseOf(stamp.token),
        elnMessage('stampToken', this.lang, { what }),
        'application/timestamp-reply',
      ),
      await add(
        files.chain,
        new TextEncoder().encode(stamp.chainPem),
        elnMessage('stampChain', this.lang, { what }),
        'application/x-pem-file',
      ),
    ];
    const time = formatZonedTime(stamp.genTime, this.timeZone, this.lang);
    this.entries.push({
      what,
      line: elnMessage('stampStamped', this.lang, {
        time: time ? `${time.text} (${time.zone})` : (stamp.genTime?.toISOString() ?? ''),
        authority: stamp.authority ?? '',
      }),
      command: verifyCommand(files),
    });
    return refs;
  }

  /** The README's text, or null when no record of the archive asked for a stamp. */
  readme(): string | null {
    if (!this.entries.length) return null;
    const body = this.entries.map(({ what, line, command }) => [`- ${what}`, `  ${line}`, ...(command ? [`  ${command}`] : [])].join('\n'));
    return `${elnMessage('timestampsIntro', this.lang)}\n\n${body.join('\n\n')}\n`;
  }
}

/** A path as a shell reads it: in single quotes (a note's folder may hold spaces or other scripts' letters). */
const quoted = (path: string) => `'${path.replace(/'/g, `'\\''`)}'`;

/** The command an inspector runs in the archive's root folder for one record. */
export function verifyCommand(files: { data: string; token: string; chain: string }): string {
  return `openssl ts -verify -data ${quoted(files.data)} -in ${quoted(files.token)} -CAfile ${quoted(files.chain)}`;
}
