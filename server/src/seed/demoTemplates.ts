import { prosemirrorJSONToYDoc } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { CONTENT_FIELD, type PmNode } from '@eln/shared';
import { chart, heading, paragraph, table, uid } from './demoContent.js';
import { noteSchema } from '@eln/shared/editor';

/**
 * The demo's template library: a synthesis record and a cell-culture log, each with a table and a chart
 * drawn from it, written by one person and approved by another; notes in the demo projects start from them.
 */

const SYNTHESIS_TABLE = 'tdemosynthesis01';
const CULTURE_TABLE = 'tdemoculture0001';

export interface DemoTemplate {
  title: string;
  description: string;
  author: string;
  approver: string;
  version: string;
  content: PmNode;
  /** Notes the demo makes from it: project title, the participant who writes it, the note's title. */
  notes: Array<{ project: string; writer: string; title: string }>;
}

export const DEMO_TEMPLATES: DemoTemplate[] = [
  {
    title: 'Synthesis record',
    description: 'One batch: reagents, procedure, yield by step',
    author: 'jiwoo.kim@demo.eln',
    approver: 'emma.wilson@demo.eln',
    version: '1.1',
    content: {
      type: 'doc',
      content: [
        heading('Objective'),
        paragraph('What this batch should show, and the reaction scheme.'),
        heading('Reagents'),
        table(
          uid('t'),
          ['Reagent', 'Amount (g)', 'Supplier', 'Lot'],
          [
            ['Aryl bromide', '', '', ''],
            ['Boronic acid', '', '', ''],
            ['Pd(PPh3)4', '', '', ''],
          ],
        ),
        heading('Procedure'),
        paragraph('1. Charge the flask under nitrogen.'),
        paragraph('2. Add the solvent and heat to reflux; follow by TLC.'),
        heading('Yield by step'),
        table(
          SYNTHESIS_TABLE,
          ['Step', 'Yield (%)'],
          [
            ['Coupling', '0'],
            ['Work-up', '0'],
            ['Purification', '0'],
          ],
        ),
        chart(SYNTHESIS_TABLE, {
          name: 'Yield by step',
          label: 'Figure 1 · yield of each step',
          xLabel: 'Step',
          yLabel: 'Yield (%)',
          dataName: 'Yield',
          from: { row: 1, col: 0 },
          to: { row: 3, col: 1 },
        }),
        heading('Observations'),
        paragraph(),
      ],
    },
    notes: [{ project: 'Catalyst screening 2026', writer: 'seoyeon.lee@demo.eln', title: 'Batch 42 coupling' }],
  },
  {
    title: 'Cell culture log',
    description: 'Passages, confluence and viability of a line',
    author: 'hana.choi@demo.eln',
    approver: 'emma.wilson@demo.eln',
    version: '1.1',
    content: {
      type: 'doc',
      content: [
        heading('Cell line'),
        paragraph('Line, passage number, medium and supplements.'),
        heading('Daily log'),
        table(
          CULTURE_TABLE,
          ['Day', 'Confluence (%)', 'Viability (%)'],
          [
            ['1', '20', '98'],
            ['2', '45', '97'],
            ['3', '80', '95'],
          ],
        ),
        chart(CULTURE_TABLE, {
          chartType: 'line',
          name: 'Growth',
          label: 'Figure 1 · confluence and viability by day',
          xLabel: 'Day',
          yLabel: '%',
          dataName: 'Confluence',
          from: { row: 1, col: 0 },
          to: { row: 3, col: 2 },
        }),
        heading('Deviations'),
        paragraph(),
      ],
    },
    notes: [{ project: 'CRISPR knock-out line B7', writer: 'junho.jung@demo.eln', title: 'B7 passage 3' }],
  },
];

/** A template's content as its live document's first stored update, as the editor would have written it. */
export function initialUpdate(content: PmNode): Uint8Array {
  return Y.encodeStateAsUpdate(prosemirrorJSONToYDoc(noteSchema(), content, CONTENT_FIELD));
}
