import { mentionAttrsOf, mentionText } from '../mentions.js';
import { cellDropboxOf } from './cellDropbox.js';
import { NODE, type PmNode } from './model.js';
import { readSchemaBlock } from './schemaBlock.js';

/**
 * What search finds in a block: `heading` ranks above `body` (a heading's text, a chart's name, an image's
 * title, a file's name, a schema block's titles). Every text a reader sees in the block is in one of them:
 * paragraphs and lists (a mention as `@Name`), table cells with their dropbox row's code and name, a chart's
 * labels, a date, a schema block's fields and values.
 */
export interface BlockSearchText {
  heading: string;
  body: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const joined = (parts: string[]): string => parts.filter((part) => part.trim() !== '').join('\n');

/** The text of a node that stands inside a line of text: a text run, or a mention (`@Name`); undefined for any other node. */
function textInLine(node: PmNode): string | undefined {
  if (node.text !== undefined) return node.text;
  const mention = mentionAttrsOf(node);
  return mention ? mentionText(mention) : undefined;
}

function inlineText(node: PmNode, out: string[]): void {
  const inLine = textInLine(node);
  if (inLine !== undefined) {
    out.push(inLine);
    return;
  }
  if (node.type === NODE.tableCell || node.type === NODE.tableHeader) {
    const dropbox = cellDropboxOf(node.attrs?.dropbox);
    if (dropbox) out.push(' ', str(dropbox.code), ' ', str(dropbox.name), ' ');
  }
  const children = node.content ?? [];
  children.forEach((child, index) => {
    inlineText(child, out);
    // Paragraphs, cells and list items are separate words even where nothing stands between them.
    if (textInLine(child) === undefined && index < children.length - 1) out.push('\n');
  });
}

export function blockSearchText(block: PmNode): BlockSearchText {
  const attrs = block.attrs ?? {};
  switch (block.type) {
    case NODE.heading: {
      const out: string[] = [];
      inlineText(block, out);
      return { heading: out.join(''), body: '' };
    }
    case NODE.chart:
      return { heading: str(attrs.name), body: joined([str(attrs.xLabel), str(attrs.yLabel), str(attrs.dataName), str(attrs.label)]) };
    case NODE.image:
      return { heading: str(attrs.title), body: '' };
    case NODE.file:
      return { heading: str(attrs.name), body: '' };
    case NODE.date:
      return { heading: '', body: str(attrs.value) };
    case NODE.schemaBlock: {
      const schema = readSchemaBlock(attrs);
      if (!schema) return { heading: '', body: '' };
      return {
        heading: joined([schema.typeTitle, schema.title]),
        body: joined(schema.entries.map((entry) => `${entry.field}: ${entry.value}`)),
      };
    }
    default: {
      const out: string[] = [];
      inlineText(block, out);
      return { heading: '', body: out.join('') };
    }
  }
}
