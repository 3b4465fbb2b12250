import { randomBytes } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { PDFContext, PDFDocument, PDFHexString, PDFName, PDFNull, PDFObjectCopier, PDFRef, PDFString, type PDFObject } from 'pdf-lib';

/**
 * Writes one PDF file from many printed parts, part by part, straight to disk: each part's pages (with
 * every object they use) get object numbers after the previous part's and are written at once, so only
 * one part is ever in memory, however many notes the file holds. The page tree, outline, catalogue and
 * cross-reference table are written last; pages appear in the order `finish` is given, whatever order
 * the parts were written in (the cover is printed last, once the notes' pages are known, and shown first).
 */

/** Objects 1 and 2 are the catalogue and the page tree, written at the end. */
const CATALOG = PDFRef.of(1);
const PAGE_TREE = PDFRef.of(2);
const FIRST_FREE_NUMBER = 3;
const FLUSH_BYTES = 1 << 20;

export interface PdfSection {
  /** The outline (bookmark) entry of the section. */
  title: string;
  pages: readonly PDFRef[];
}

export interface PdfFileInfo {
  title: string;
  author: string;
  subject: string;
  createdAt: Date;
  /** BCP 47 language of the file's text (the catalogue's /Lang). */
  lang: string;
}

export class PdfFileWriter {
  private position = 0;
  private readonly offsets: number[] = [];
  private nextNumber = FIRST_FREE_NUMBER;
  private chunks: Buffer[] = [];
  private buffered = 0;

  private constructor(private readonly file: FileHandle) {}

  static async create(path: string): Promise<PdfFileWriter> {
    const writer = new PdfFileWriter(await open(path, 'w'));
    // The binary comment tells transfer tools the file is binary (PDF 32000-1, 7.5.2).
    writer.push(Buffer.concat([Buffer.from('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), Buffer.from('\n')]));
    return writer;
  }

  /** Writes a printed PDF's pages and answers their references, in order. */
  async append(pdf: Uint8Array): Promise<PDFRef[]> {
    const source = await PDFDocument.load(pdf, { updateMetadata: false });
    const target = PDFContext.create();
    target.largestObjectNumber = this.nextNumber - 1;
    const copier = PDFObjectCopier.for(source.context, target);
    const pages = source.getPages().map((page) => {
      const copied = copier.copy(page.node);
      copied.set(PDFName.of('Parent'), PAGE_TREE);
      // The part's structure tree stays behind (merging cannot keep it); its keys would point nowhere.
      copied.delete(PDFName.of('StructParents'));
      return target.register(copied);
    });
    for (let number = this.nextNumber; number <= target.largestObjectNumber; number += 1) {
      await this.writeObject(number, target.lookup(PDFRef.of(number)) ?? PDFNull);
    }
    this.nextNumber = target.largestObjectNumber + 1;
    return pages;
  }

  /** Writes the page tree, outline, information and cross-reference table, and closes the file. */
  async finish(sections: readonly PdfSection[], info: PdfFileInfo): Promise<{ pages: number; bytes: number }> {
    const context = PDFContext.create();
    const kids = sections.flatMap((section) => section.pages);
    await this.writeObject(PAGE_TREE.objectNumber, context.obj({ Type: 'Pages', Kids: kids, Count: kids.length }));
    const outline = await this.writeOutline(
      context,
      sections.filter((section) => section.pages.length > 0),
    );
    const catalog = context.obj({
      Type: 'Catalog',
      Pages: PAGE_TREE,
      Lang: PDFString.of(info.lang),
      ...(outline ? { Outlines: outline, PageMode: 'UseOutlines' } : {}),
    });
    await this.writeObject(CATALOG.objectNumber, catalog);
    const infoRef = this.reserve();
    await this.writeObject(
      infoRef.objectNumber,
      context.obj({
        Title: PDFHexString.fromText(info.title),
        Author: PDFHexString.fromText(info.author),
        Subject: PDFHexString.fromText(info.subject),
        Creator: PDFHexString.fromText('ELN'),
        Producer: PDFHexString.fromText('ELN PDF export (chromium, pdf-lib)'),
        CreationDate: PDFString.fromDate(info.createdAt),
        ModDate: PDFString.fromDate(info.createdAt),
      }),
    );
    await this.writeTrailer(infoRef);
    await this.flush();
    await this.file.close();
    return { pages: kids.length, bytes: this.position };
  }

  /** Closes the file without finishing it (the caller removes it). */
  async abandon(): Promise<void> {
    await this.file.close().catch(() => undefined);
  }

  /** One bookmark per section, pointing at its first page. */
  private async writeOutline(context: PDFContext, sections: readonly PdfSection[]): Promise<PDFRef | null> {
    if (!sections.length) return null;
    const root = this.reserve();
    const items = sections.map(() => this.reserve());
    for (const [i, section] of sections.entries()) {
      const item = context.obj({
        Title: PDFHexString.fromText(section.title),
        Parent: root,
        Dest: [section.pages[0] ?? PDFNull, PDFName.of('Fit')],
        ...(i > 0 ? { Prev: items[i - 1] } : {}),
        ...(i < items.length - 1 ? { Next: items[i + 1] } : {}),
      });
      await this.writeObject(items[i]!.objectNumber, item);
    }
    await this.writeObject(root.objectNumber, context.obj({ Type: 'Outlines', First: items[0], Last: items.at(-1), Count: items.length }));
    return root;
  }

  private reserve(): PDFRef {
    const ref = PDFRef.of(this.nextNumber);
    this.nextNumber += 1;
    return ref;
  }

  private async writeObject(number: number, object: PDFObject): Promise<void> {
    this.offsets[number] = this.position;
    const body = Buffer.alloc(object.sizeInBytes());
    object.copyBytesInto(body, 0);
    this.push(Buffer.from(`${number} 0 obj\n`), body, Buffer.from('\nendobj\n'));
    if (this.buffered >= FLUSH_BYTES) await this.flush();
  }

  private async writeTrailer(info: PDFRef): Promise<void> {
    const size = this.nextNumber;
    const xrefAt = this.position;
    const lines = ['xref', `0 ${size}`, '0000000000 65535 f '];
    for (let number = 1; number < size; number += 1) {
      const offset = this.offsets[number];
      // Every number is written (unused ones as null objects), so a gap would be a bug here.
      if (offset === undefined) throw new Error(`PDF object ${number} was never written`);
      lines.push(`${String(offset).padStart(10, '0')} 00000 n `);
    }
    const id = PDFHexString.of(randomBytes(16).toString('hex'));
    const trailer = PDFContext.create().obj({ Size: size, Root: CATALOG, Info: info, ID: [id, id] });
    const trailerBytes = Buffer.alloc(trailer.sizeInBytes());
    trailer.copyBytesInto(trailerBytes, 0);
    this.push(Buffer.from(`${lines.join('\n')}\ntrailer\n`), trailerBytes, Buffer.from(`\nstartxref\n${xrefAt}\n%%EOF\n`));
  }

  private push(...buffers: Buffer[]): void {
    for (const buffer of buffers) {
      this.chunks.push(buffer);
      this.buffered += buffer.length;
      this.position += buffer.length;
    }
  }

  private async flush(): Promise<void> {
    if (!this.chunks.length) return;
    const chunks = this.chunks;
    this.chunks = [];
    this.buffered = 0;
    await this.file.write(Buffer.concat(chunks));
  }
}
