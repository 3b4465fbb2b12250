import {
  NODE,
  readCellDropbox,
  readSchemaBlock,
  sealedText,
  type CatalogueCopyKind,
  type ContentViolation,
  type PmNode,
} from '@eln/shared';
import { SigningKey } from '../../auth/signedTokens.js';

/**
 * The seals on catalogue copies in notes (`shared/src/blocks/catalogueCopies.ts`): made when the server
 * hands out a schema block or a dropbox cell, checked when a live update brings a new or changed one.
 */
export class CatalogueSeals {
  /** Seals are stored in saved notes: this purpose and the text signed (sealedText) never change. */
  private readonly key: SigningKey;
  /** Each block's verdict, kept while its JSON object is (an unchanged block keeps its object). */
  private readonly verdicts = new WeakMap<PmNode, ContentViolation[]>();

  constructor(secret: string) {
    this.key = new SigningKey(secret, 'catalogue-copy');
  }

  seal<T extends object>(kind: CatalogueCopyKind, copy: T): T & { seal: string } {
    return { ...copy, seal: this.key.sign(sealedText(kind, copy)) };
  }

  private isSealed(kind: CatalogueCopyKind, copy: { seal: string }): boolean {
    return this.key.verify(sealedText(kind, copy), copy.seal);
  }

  /**
   * The copies in one top-level block that do not carry a seal the server made: a schema block, or a
   * table cell's dropbox (the older title-only form has none). Malformed ones are the content rules' to
   * refuse; this judges only what they let through.
   */
  violations(block: PmNode): ContentViolation[] {
    const known = this.verdicts.get(block);
    if (known) return known;
    const blockUid = typeof block.attrs?.blockUid === 'string' ? block.attrs.blockUid : null;
    const found: ContentViolation[] = [];
    const visit = (node: PmNode) => {
      if (node.type === NODE.schemaBlock) {
        const copy = readSchemaBlock(node.attrs);
        if (copy && !this.isSealed('schemaBlock', copy)) found.push({ rule: 'catalogueCopy', blockUid });
      }
      if (node.type === NODE.tableCell || node.type === NODE.tableHeader) {
        const copy = readCellDropbox(node.attrs?.dropbox);
        if (copy !== null && copy !== 'invalid' && (copy.dropboxNo === null || !this.isSealed('dropboxCell', copy)))
          found.push({ rule: 'catalogueCopy', blockUid });
      }
      for (const child of node.content ?? []) visit(child);
    };
    if (block.type === NODE.schemaBlock || block.type === NODE.table) visit(block);
    this.verdicts.set(block, found);
    return found;
  }
}
