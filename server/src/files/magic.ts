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

/** How many leading bytes the check needs. */
export const MAGIC_BYTES_NEEDED = 512;

function isText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  // The head may end inside a multi-byte character: drop an incomplete tail before decoding strictly.
  let end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = head[end - back] ?? 0;
    if ((byte & 0xc0) === 0xc0) {
      end -= back;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

export function contentMatchesExtension(extension: string, head: Uint8Array): boolean {
  if (extension === 'txt') return isText(head);
  const signatures = SIGNATURES[extension];
  if (!signatures) return false;
  return signatures.some(({ offset, bytes }) => bytes.every((b, i) => head[offset + i] === b));
}
