import { LIMITS } from '../limits.js';
import { NODE, type PmNode } from '../blocks/model.js';
import { readCellDropbox } from '../blocks/cellDropbox.js';
import { readSchemaBlock } from '../blocks/schemaBlock.js';
import { mentionAttrsOf, validMention } from '../mentions.js';
import { tableShape, type TableShape } from './tableGrid.js';

/**
 * The spec's content rules (§5) as pure functions over ProseMirror JSON, the same for the editor (instant
 * feedback), the live-editing server (every update) and the save routes. State rules look at one
 * document; transition rules (`lastRow`, `lastColumn`, `mergedCells`) compare a table with the same
 * blockUid before and after a change. Every violation names the top-level block it lies in.
 */
export type ContentViolation =
  | { rule: 'tableSize'; blockUid: string | null; rows: number; columns: number }
  | { rule: Exclude<ContentRule, 'tableSize'>; blockUid: string | null };

export const CONTENT_RULES = [
  /** A table has 1 to LIMITS.tableMaxSide rows and columns. */
  'tableSize',
  /** No table inside a table. */
  'tableInTable',
  /** Every span is a positive integer, and merged cells neither overlap nor run past the last row. */
  'cellSpans',
  /** A change removed a table's last row (deleting the whole table is fine). */
  'lastRow',
  /** A change removed a table's last column. */
  'lastColumn',
  /** A change deleted rows or columns that merged cells touch (see `tableTransitionViolation`). */
  'mergedCells',
  /** A cell's dropbox is one dropbox reference with at most one chosen row (`readCellDropbox`). */
  'dropboxValue',
  /** Header cells have no dropbox. */
  'dropboxHeader',
  /** Dates stand at the top level of the note (the editor inserts them there, never into a block). */
  'datePlacement',
  /** A chart has a name, a label and a data name. */
  'chartFields',
  /** A chart's range covers two or more cells of an existing top-level table and lies inside it. */
  'chartRange',
  /** An image title has at most LIMITS.imageTitle characters. */
  'imageTitle',
  /**
   * A schema block stands at the top level, names its schema, type and revision and holds at most
   * LIMITS.schemaEntriesPerSchema valid entries.
   */
  'schemaBlock',
  /** A mention names a person by a user ID (an email) and keeps a name of at most LIMITS.userName characters. */
  'mention',
  /**
   * A new or changed schema block or cell dropbox carries the seal the server gave its copy (judged by
   * the server alone, which holds the key: `collab/guard/catalogueSeals.ts`; `contentViolations` never reports it).
   */
  'catalogueCopy',
  /**
   * The document fits the editor's schema (known nodes, marks and attributes). Judged by
   * `schemaViolation` in `@eln/shared/editor`, which needs Tiptap; `contentViolations` never reports it.
   */
  'schema',
] as const;
export type ContentRule = (typeof CONTENT_RULES)[number];

type Violation = ContentViolation;
const uidOf = (node: PmNode): string | null => (typeof node.attrs?.blockUid === 'string' ? node.attrs.blockUid : null);
const children = (node: PmNode): PmNode[] => node.content ?? [];
const filled = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/**
 * What a caller that reuses the JSON object of every unchanged subtree (the server's live snapshots) keeps
 * per object, so that the rules' walks of a block after a keystroke in one cell go down that cell's path,
 * not into the 900 cells of its table (the table's shape, which reads every cell's spans, is derived
 * apart). Only for JSON that is never changed once made; callers without one walk it all.
 */
export interface SubtreeMemo {
  readsTables: WeakMap<PmNode, boolean>;
  containsTable: WeakMap<PmNode, boolean>;
  /** The violations inside a subtree that lies within a table, below the top level, blockUid left null. */
  inTable: WeakMap<PmNode, Violation[]>;
}

export const subtreeMemo = (): SubtreeMemo => ({ readsTables: new WeakMap(), containsTable: new WeakMap(), inTable: new WeakMap() });

function remembered<T>(memo: WeakMap<PmNode, T> | undefined, node: PmNode, derive: () => T): T {
  if (!memo) return derive();
  let value = memo.get(node);
  if (value === undefined) {
    value = derive();
    memo.set(node, value);
  }
  return value;
}

function containsTable(node: PmNode, memo?: SubtreeMemo): boolean {
  return remembered(memo?.containsTable, node, () =>
    children(node).some((child) => child.type === NODE.table || containsTable(child, memo)),
  );
}

function tableViolations(table: PmNode, shape: TableShape, blockUid: string | null, memo?: SubtreeMemo): Violation[] {
  const found: Violation[] = [];
  const { height: rows, width: columns } = shape;
  if (rows < 1 || rows > LIMITS.tableMaxSide || columns < 1 || columns > LIMITS.tableMaxSide)
    found.push({ rule: 'tableSize', blockUid, rows, columns });
  if (containsTable(table, memo)) found.push({ rule: 'tableInTable', blockUid });
  if (shape.spanProblem) found.push({ rule: 'cellSpans', blockUid });
  return found;
}

function cellViolations(cell: PmNode, blockUid: string | null): Violation[] {
  const dropbox = readCellDropbox(cell.attrs?.dropbox);
  if (dropbox === null) return [];
  if (dropbox === 'invalid') return [{ rule: 'dropboxValue', blockUid }];
  return cell.type === NODE.tableHeader ? [{ rule: 'dropboxHeader', blockUid }] : [];
}

interface CellRange {
  from: { row: number; col: number };
  to: { row: number; col: number };
}

function cellRef(value: unknown): { row: number; col: number } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { row, col } = value as Record<string, unknown>;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return ok(row) && ok(col) ? { row, col } : null;
}

/** Whether a chart's range is two or more cells lying inside its table's shape. */
export function rangeFitsTable(range: CellRange, shape: TableShape | undefined): boolean {
  const { from, to } = range;
  if (!shape || (from.row === to.row && from.col === to.col)) return false;
  return Math.max(from.row, to.row) < shape.height && Math.max(from.col, to.col) < shape.width;
}

function chartViolations(chart: PmNode, blockUid: string | null, tables: Map<string, TableShape>): Violation[] {
  const attrs = chart.attrs ?? {};
  const found: Violation[] = [];
  if (!filled(attrs.name) || !filled(attrs.label) || !filled(attrs.dataName)) found.push({ rule: 'chartFields', blockUid });
  const from = cellRef(attrs.from);
  const to = cellRef(attrs.to);
  const shape = typeof attrs.tableUid === 'string' ? tables.get(attrs.tableUid) : undefined;
  if (!from || !to || !rangeFitsTable({ from, to }, shape)) found.push({ rule: 'chartRange', blockUid });
  return found;
}

/** What a walk of one top-level block carries down: the block, the note's tables, and what it found. */
interface BlockWalk {
  blockUid: string | null;
  tables: Map<string, TableShape>;
  shapeOf: (table: PmNode) => TableShape;
  found: Violation[];
  memo?: SubtreeMemo;
}

/** Everything inside one top-level block, walked once, into `walk.found`. */
function collectViolations(walk: BlockWalk, node: PmNode, depth: number, inTable: boolean): void {
  const { memo } = walk;
  // Inside a table and below the top level, what a subtree breaks depends on it alone unless it holds a chart.
  if (memo && inTable && depth > 0 && !readsTables(node, memo)) {
    const inside = remembered(memo.inTable, node, () => {
      const alone: BlockWalk = { ...walk, blockUid: null, found: [] };
      collectNodeViolations(alone, node, depth, inTable);
      return alone.found;
    });
    walk.found.push(...inside.map((violation) => ({ ...violation, blockUid: walk.blockUid })));
    return;
  }
  collectNodeViolations(walk, node, depth, inTable);
}

function collectNodeViolations(walk: BlockWalk, node: PmNode, depth: number, inTable: boolean): void {
  const { blockUid, found } = walk;
  if (node.type === NODE.table && !inTable) found.push(...tableViolations(node, walk.shapeOf(node), blockUid, walk.memo));
  if (node.type === NODE.tableCell || node.type === NODE.tableHeader) found.push(...cellViolations(node, blockUid));
  if (node.type === NODE.date && depth > 0) found.push({ rule: 'datePlacement', blockUid });
  if (node.type === NODE.chart) found.push(...chartViolations(node, blockUid, walk.tables));
  const imageTitle = node.type === NODE.image ? node.attrs?.title : undefined;
  if (typeof imageTitle === 'string' && imageTitle.length > LIMITS.imageTitle) found.push({ rule: 'imageTitle', blockUid });
  if (node.type === NODE.schemaBlock && (depth > 0 || !readSchemaBlock(node.attrs))) found.push({ rule: 'schemaBlock', blockUid });
  const mention = mentionAttrsOf(node);
  if (mention && !validMention(mention)) found.push({ rule: 'mention', blockUid });
  const childInTable = inTable || node.type === NODE.table;
  for (const child of children(node)) collectViolations(walk, child, depth + 1, childInTable);
}

/**
 * The shapes of the note's top-level tables by blockUid (the first table of each): what charts may refer
 * to. `shapeOf` gives a table's shape (a caller keeping unchanged blocks passes one that remembers them).
 */
export function topLevelTables(blocks: readonly PmNode[], shapeOf: (table: PmNode) => TableShape = tableShape): Map<string, TableShape> {
  const tables = new Map<string, TableShape>();
  for (const node of blocks) {
    const uid = uidOf(node);
    if (node.type === NODE.table && uid && !tables.has(uid)) tables.set(uid, shapeOf(node));
  }
  return tables;
}

/**
 * The state rules one top-level block breaks, given the note's top-level tables (charts read them).
 * `shapeOf` gives a table's shape (a caller that already has the block's shape passes one that reuses it);
 * `memo` keeps what unchanged subtrees break, for JSON never changed once made (see SubtreeMemo).
 */
export function blockStateViolations(
  node: PmNode,
  tables: Map<string, TableShape>,
  shapeOf: (table: PmNode) => TableShape = tableShape,
  memo?: SubtreeMemo,
): ContentViolation[] {
  const walk: BlockWalk = { blockUid: uidOf(node), tables, shapeOf, found: [], memo };
  collectViolations(walk, node, 0, false);
  return walk.found;
}

/** Whether a block's violations depend on the note's tables (it holds a chart), not on itself alone. */
export function readsTables(node: PmNode, memo?: SubtreeMemo): boolean {
  return remembered(memo?.readsTables, node, () => node.type === NODE.chart || children(node).some((child) => readsTables(child, memo)));
}

/** The transition rules broken between the tables before and after a change (same blockUid). */
export function tableTransitions(after: Map<string, TableShape>, before: Map<string, TableShape>): ContentViolation[] {
  const found: Violation[] = [];
  for (const [blockUid, shape] of after) {
    const was = before.get(blockUid);
    // A shape the change left as it was breaks no transition rule.
    const rule = was && was !== shape ? tableTransitionViolation(was, shape) : null;
    if (rule) found.push({ rule, blockUid });
  }
  return found;
}

/**
 * What a change did wrong to one table (the same blockUid before and after), or null: it removed the last
 * row or column, or it deleted rows or columns that merged cells touch. The latter is decided without
 * knowing which rows went: the table lost rows (columns) and its merged cells' spans, in order, are not
 * what they were. Deleting rows no merged cell touches leaves every merged cell as it was; deleting
 * one it touches drops it or shrinks its span. The editor asks the same question of its dry run.
 */
export function tableTransitionViolation(before: TableShape, after: TableShape): 'lastRow' | 'lastColumn' | 'mergedCells' | null {
  if (before.height > 0 && after.height === 0) return 'lastRow';
  if (before.width > 0 && after.width === 0) return 'lastColumn';
  const shrank = after.height < before.height || after.width < before.width;
  return shrank && before.mergedSpans !== after.mergedSpans ? 'mergedCells' : null;
}

/**
 * Every content rule the document `after` breaks; with `before`, also what the change from it broke
 * (transition rules). Callers that must stay able to edit an old document compare with
 * `newContentViolations`.
 */
export function contentViolations(after: PmNode, before?: PmNode): ContentViolation[] {
  const tables = topLevelTables(children(after));
  const transitions = before ? tableTransitions(tables, topLevelTables(children(before))) : [];
  return [...transitions, ...children(after).flatMap((node) => blockStateViolations(node, tables))];
}

const keyOf = (violation: ContentViolation) => `${violation.rule}\u0000${violation.blockUid ?? ''}`;

/**
 * The violations a change adds: those of `after` (with the change's transition rules) beyond what
 * `before` already broke, counted per rule and block. A document that already breaks a rule thus stays
 * editable as long as an edit does not break it more.
 */
export function newContentViolations(after: PmNode, before: PmNode): ContentViolation[] {
  return violationsBeyond(contentViolations(after, before), contentViolations(before));
}

/** The violations of `after` beyond those of `before`, counted per rule and block, in `after`'s order. */
export function violationsBeyond(after: readonly ContentViolation[], before: readonly ContentViolation[]): ContentViolation[] {
  const old = new Map<string, number>();
  for (const violation of before) old.set(keyOf(violation), (old.get(keyOf(violation)) ?? 0) + 1);
  return after.filter((violation) => {
    const left = old.get(keyOf(violation)) ?? 0;
    old.set(keyOf(violation), left - 1);
    return left <= 0;
  });
}

/** The rules that judge a change (one table before and after) rather than a document. */
export const TRANSITION_RULES: ReadonlySet<ContentRule> = new Set<ContentRule>(['lastRow', 'lastColumn', 'mergedCells']);
