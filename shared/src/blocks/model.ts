import { BLOCK_NODES, type BlockType } from '../editor/blockNodes.js';
import type { CellDropbox } from './cellDropbox.js';

/**
 * The block model: a note's document as the list of blocks the API speaks. Client and server derive it
 * from the same document with the same function (`docToBlocks`), so they always agree.
 */
export const NOTE_TYPES = ['LABNOTE', 'TEMPLATE'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

/** Against the last saved version: ADD new, EDIT changed, DELETE gone, NORMAL unchanged. */
export const BLOCK_STATUSES = ['ADD', 'EDIT', 'DELETE', 'NORMAL'] as const;
export type BlockStatus = (typeof BLOCK_STATUSES)[number];

export interface TableCell {
  text: string;
  colspan: number;
  rowspan: number;
  /** The cell's dropbox and the row chosen from it, if any. */
  dropbox: CellDropbox | null;
}

export interface BlockTable {
  header: TableCell[][];
  body: TableCell[][];
}

export interface Block {
  type: BlockType;
  blockUid: string;
  noteType: NoteType;
  /** The finer kind: paragraph, heading-2, bulletList, table, chart-bar... */
  blockClass: string;
  blockTable: BlockTable | null;
  /** The block's node as canonical JSON. */
  content: string;
  /** Position in the note, from 1. */
  blockOdr: number;
  blockStatus: BlockStatus;
}

/** A block as a saved version keeps it: its status is relative to nothing. */
export type SavedBlock = Omit<Block, 'blockStatus'>;

/** Node names the block code refers to: the block nodes of the one list, and the nodes inside them. */
export const NODE = {
  doc: 'doc',
  paragraph: 'paragraph',
  heading: 'heading',
  listItem: 'listItem',
  table: 'table',
  tableRow: 'tableRow',
  tableCell: 'tableCell',
  tableHeader: 'tableHeader',
  chart: 'chart',
  image: 'image',
  file: 'fileAttachment',
  date: 'date',
  schemaBlock: 'schemaBlock',
  text: 'text',
} as const satisfies Record<string, string>;

/** Which block type each top-level node becomes (from the one list). Anything else is text. */
export const BLOCK_TYPE_OF_NODE: Readonly<Record<string, BlockType>> = BLOCK_NODES;

export const CHART_TYPES = ['bar', 'horizontal', 'line', 'doughnut', 'pie', 'radar', 'scatter'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** ProseMirror's JSON form of a node, as Tiptap and y-tiptap produce it. */
export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  text?: string;
}
