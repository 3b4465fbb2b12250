import type { ExtraFileType } from '@eln/shared';

/**
 * What a file's first bytes must look like for the extension it claims. A file named .png that is
 * really an executable or a script is refused, whatever its name says.
 */
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const SIGNATURES: Record<string, Array<{ offset: number; bytes: number[] }>> = {
  jpg: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }],
  jpeg: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }],
  png: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }],
  gif: [
    { offset: 0, bytes: ascii('GIF87a') },
    { offset: 0, bytes: ascii('GIF89a') },
  ],
  pdf: [{ offset: 0, bytes: ascii('%PDF-') }],
  zip: [
    { offset: 0, bytes: ZIP },
    { offset: 0, bytes: EMPTY_ZIP },
  ],
  xlsx: [{ offset: 0, bytes: ZIP }],
  pptx: [{ offset: 0, bytes: ZIP }],
  docx: [{ offset: 0, bytes: ZIP }],
  odt: [{ offset: 0, bytes: ZIP }],
  xls: [{ offset: 0, bytes: OLE2 }],
  rar: [{ offset: 0, bytes: ascii('Rar!\x1a\x07') }],
  tar: [{ offset: 257, bytes: ascii('ustar') }],
};

export const MIME_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  xls: 'application/vnd.ms-excel',
  rar: 'application/vnd.rar',
  tar: 'application/x-tar',
  txt: 'text/plain; charset=utf-8',
};

/** How many leading bytes a signature check needs (a tar's sits at 257). */
const MAGIC_BYTES_NEEDED = 512;

/** A check of a file's content, fed its bytes as they stream in and asked at the end. */
export interface ContentCheck {
  update(chunk: Uint8Array): void;
  /** Whether the content passes; `complete: false` when only the head was fed (it may end inside a character). */
  passes(complete?: boolean): boolean;
}

/** Passes when the file starts with one of `signatures` (each at its offset). */
class SignatureCheck implements ContentCheck {
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;

  constructor(private readonly signatures: ReadonlyArray<{ offset: number; bytes: readonly number[] }>) {}

  update(chunk: Uint8Array): void {
    if (this.headBytes >= MAGIC_BYTES_NEEDED) return;
    const part = chunk.subarray(0, MAGIC_BYTES_NEEDED - this.headBytes);
    this.head.push(part);
    this.headBytes += part.length;
  }

  passes(): boolean {
    const head = Buffer.concat(this.head);
    return this.signatures.some(({ offset, bytes }) => bytes.every((b, i) => head[offset + i] === b));
  }
}

/**
 * C0 control bytes text has no use for: all but tab, line feed, vertical tab, form feed, carriage return,
 * SUB (an old end-of-file mark instruments still write) and escape. No byte of a UTF-8 or CP949 character
 * is below 0x41 but its first, so a byte-level look is exact.
 */
const BINARY_BYTE = /[\x00-\x08\x0e-\x19\x1c-\x1f]/;

/**
 * Passes text: no binary control byte anywhere, and every byte part of a valid UTF-8 (a byte order mark
 * allowed) or CP949 character, as Korean Excel writes CSV. Both decodings run as the bytes come, each
 * given up at its first error.
 */
class TextCheck implements ContentCheck {
  private decoders: TextDecoder[] = [new TextDecoder('utf-8', { fatal: true }), new TextDecoder('euc-kr', { fatal: true })];
  private binary = false;

  update(chunk: Uint8Array): void {
    if (this.binary || this.decoders.length === 0) return;
    if (BINARY_BYTE.test(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'))) {
      this.binary = true;
      return;
    }
    this.decoders = this.decoders.filter((decoder) => decodes(decoder, chunk, true));
  }

  passes(complete = true): boolean {
    if (this.binary) return false;
    // The end of the file must end its last character; a head may stop inside one.
    return complete ? this.decoders.some((decoder) => decodes(decoder, new Uint8Array(0), false)) : this.decoders.length > 0;
  }
}

function decodes(decoder: TextDecoder, chunk: Uint8Array, stream: boolean): boolean {
  try {
    decoder.decode(chunk, { stream });
    return true;
  } catch {
    return false;
  }
}

const hexBytes = (hex: string) => Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));

/**
 * The check a file of this extension must pass: the spec's types by their signatures (txt as text), a
 * type an administrator added (`extra`) by its own check; null for an extension of neither.
 */
export function contentCheckFor(extension: string, extra: readonly ExtraFileType[] = []): ContentCheck | null {
  if (extension === 'txt') return new TextCheck();
  const signatures = SIGNATURES[extension];
  if (signatures) return new SignatureCheck(signatures);
  const added = extra.find((type) => type.extension === extension);
  if (!added) return null;
  if (added.check === 'text') return new TextCheck();
  return new SignatureCheck(added.signatures.map((hex) => ({ offset: 0, bytes: hexBytes(hex) })));
}

/** The MIME type a stored file of this extension is served with. */
export function mimeTypeOf(extension: string, extra: readonly ExtraFileType[] = []): string {
  return MIME_TYPES[extension] ?? extra.find((type) => type.extension === extension)?.mimeType ?? 'application/octet-stream';
}
