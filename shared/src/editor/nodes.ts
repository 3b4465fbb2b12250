import { mergeAttributes, Node } from '@tiptap/core';
import { LIMITS } from '../limits.js';
import { CHART_TYPES, type ChartType } from '../blocks/model.js';
import { MENTION_NODE, mentionAttrsOf, mentionText } from '../mentions.js';

/**
 * The note's own block nodes, without their views (the browser adds those), so that the server and the
 * tests build the same schema headless. Files and images keep only a reference (fileId) in the document:
 * the bytes stay out of the Yjs document.
 */

/** What parsing an attribute needs of an HTML element (the shared package is compiled without the DOM). */
export interface AttributeSource {
  getAttribute(name: string): string | null;
}

export interface CellRef {
  row: number;
  col: number;
}

export type ChartDirection = 'horizontal' | 'vertical';

export interface ChartAttrs {
  blockUid: string | null;
  chartType: ChartType;
  name: string;
  xLabel: string;
  yLabel: string;
  dataName: string;
  label: string;
  direction: ChartDirection;
  tableUid: string;
  from: CellRef;
  to: CellRef;
}

export interface ImageAttrs {
  blockUid: string | null;
  fileId: string;
  title: string;
}

export interface FileAttrs {
  blockUid: string | null;
  fileId: string;
  name: string;
  size: number;
  extension: string;
}

export interface DateAttrs {
  blockUid: string | null;
  value: string;
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const num = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
};

export function toCellRef(value: unknown): CellRef {
  if (typeof value === 'object' && value !== null) {
    const ref = value as Record<string, unknown>;
    return { row: Math.max(0, Math.floor(num(ref.row))), col: Math.max(0, Math.floor(num(ref.col))) };
  }
  return { row: 0, col: 0 };
}

export function isChartType(value: unknown): value is ChartType {
  return typeof value === 'string' && (CHART_TYPES as readonly string[]).includes(value);
}

/** The chart's attributes read defensively (a document may come from an older or a foreign client). */
export function chartAttrsOf(attrs: Record<string, unknown>): ChartAttrs {
  return {
    blockUid: typeof attrs.blockUid === 'string' ? attrs.blockUid : null,
    chartType: isChartType(attrs.chartType) ? attrs.chartType : 'bar',
    name: text(attrs.name),
    xLabel: text(attrs.xLabel),
    yLabel: text(attrs.yLabel),
    dataName: text(attrs.dataName),
    label: text(attrs.label),
    direction: attrs.direction === 'horizontal' ? 'horizontal' : 'vertical',
    tableUid: text(attrs.tableUid),
    from: toCellRef(attrs.from),
    to: toCellRef(attrs.to),
  };
}

const jsonAttr = (name: string) => ({
  default: null,
  parseHTML: (element: AttributeSource) => {
    const raw = element.getAttribute(`data-${name}`);
    if (!raw) return null;
    try {
      return toCellRef(JSON.parse(raw));
    } catch {
      return null;
    }
  },
  renderHTML: (attributes: Record<string, unknown>) => (attributes[name] ? { [`data-${name}`]: JSON.stringify(attributes[name]) } : {}),
});

const stringAttr = (name: string, fallback = '') => ({
  default: fallback,
  parseHTML: (element: AttributeSource) => element.getAttribute(`data-${name.toLowerCase()}`) ?? fallback,
  renderHTML: (attributes: Record<string, unknown>) => ({ [`data-${name.toLowerCase()}`]: text(attributes[name], fallback) }),
});

export const ChartNode = Node.create({
  name: 'chart',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return {
      chartType: stringAttr('chartType', 'bar'),
      name: stringAttr('name'),
      xLabel: stringAttr('xLabel'),
      yLabel: stringAttr('yLabel'),
      dataName: stringAttr('dataName'),
      label: stringAttr('label'),
      direction: stringAttr('direction', 'vertical'),
      tableUid: stringAttr('tableUid'),
      from: jsonAttr('from'),
      to: jsonAttr('to'),
    };
  },
  parseHTML() {
    return [{ tag: 'figure[data-type="chart"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['figure', mergeAttributes(HTMLAttributes, { 'data-type': 'chart' }), text(HTMLAttributes['data-name'])];
  },
});

export const ImageNode = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return {
      fileId: stringAttr('fileId'),
      title: {
        default: '',
        parseHTML: (element: AttributeSource) => (element.getAttribute('data-title') ?? '').slice(0, LIMITS.imageTitle),
        renderHTML: (attributes: Record<string, unknown>) => ({ 'data-title': text(attributes.title) }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'figure[data-type="image"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['figure', mergeAttributes(HTMLAttributes, { 'data-type': 'image' }), text(HTMLAttributes['data-title'])];
  },
});

export const FileNode = Node.create({
  name: 'fileAttachment',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return {
      fileId: stringAttr('fileId'),
      name: stringAttr('name'),
      size: {
        default: 0,
        parseHTML: (element: AttributeSource) => num(element.getAttribute('data-size')),
        renderHTML: (attributes: Record<string, unknown>) => ({ 'data-size': String(num(attributes.size)) }),
      },
      extension: stringAttr('extension'),
    };
  },
  parseHTML() {
    return [{ tag: 'div[data-type="file"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-type': 'file' }), text(HTMLAttributes['data-name'])];
  },
});

export const DateNode = Node.create({
  name: 'date',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return { value: stringAttr('value') };
  },
  parseHTML() {
    return [{ tag: 'div[data-type="date"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-type': 'date' }), text(HTMLAttributes['data-value'])];
  },
});

const numberAttr = (name: string) => ({
  default: null,
  parseHTML: (element: AttributeSource) => {
    const n = Number(element.getAttribute(`data-${name.toLowerCase()}`));
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  },
  renderHTML: (attributes: Record<string, unknown>) => {
    const value = attributes[name];
    return { [`data-${name.toLowerCase()}`]: typeof value === 'number' || typeof value === 'string' ? String(value) : '' };
  },
});

/**
 * A schema block (`SchemaBlockAttrs` in `@eln/shared`): a read-only copy of a child schema's entries with
 * the schema, type and revision it came from, sealed by the server that made the copy. The entries are an
 * attribute, not editable content, so typing can never change them; inserting the block again (or a newer
 * revision) is the only way.
 */
export const SchemaBlockNode = Node.create({
  name: 'schemaBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return {
      schemasTypeNo: numberAttr('schemasTypeNo'),
      schemaNo: numberAttr('schemaNo'),
      typeTitle: stringAttr('typeTitle'),
      title: stringAttr('title'),
      revision: numberAttr('revision'),
      seal: stringAttr('seal'),
      entries: {
        default: [],
        parseHTML: (element: AttributeSource) => {
          try {
            const entries: unknown = JSON.parse(element.getAttribute('data-entries') ?? '[]');
            return Array.isArray(entries) ? (entries as unknown[]) : [];
          } catch {
            return [];
          }
        },
        renderHTML: (attributes: Record<string, unknown>) => ({
          'data-entries': JSON.stringify(Array.isArray(attributes.entries) ? attributes.entries : []),
        }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'div[data-type="schema"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-type': 'schema' }), text(HTMLAttributes['data-title'])];
  },
});

/**
 * A mention of a person inside text (shared/src/mentions.ts): their user ID and their name when it was
 * written. An atom, so the text of the name cannot be edited into something else; plain text (copying,
 * search, comparisons) reads it as `@Name`. The browser shows it as a chip with the person's current name.
 */
export const MentionNode = Node.create({
  name: MENTION_NODE,
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  draggable: false,
  addAttributes() {
    return {
      userId: {
        default: '',
        parseHTML: (element: AttributeSource) => element.getAttribute('data-user-id') ?? '',
        renderHTML: (attributes: Record<string, unknown>) => ({ 'data-user-id': text(attributes.userId) }),
      },
      label: {
        default: '',
        parseHTML: (element: AttributeSource) => (element.getAttribute('data-label') ?? '').slice(0, LIMITS.userName),
        renderHTML: (attributes: Record<string, unknown>) => ({ 'data-label': text(attributes.label) }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-type="mention"]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes, { 'data-type': 'mention', class: 'mention' }), mentionText(mentionOf(node.attrs))];
  },
  renderText({ node }) {
    return mentionText(mentionOf(node.attrs));
  },
});

function mentionOf(attrs: Record<string, unknown>) {
  return mentionAttrsOf({ type: MENTION_NODE, attrs }) ?? { userId: '', label: '' };
}
