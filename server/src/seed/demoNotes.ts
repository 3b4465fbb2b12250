import type { PmNode } from '@eln/shared';
import { chart, doc, heading, paragraph, table } from './demoContent.js';

/**
 * The demo's lab notes in every working state: one still being written, one awaiting a reviewer, one
 * signed by a reviewer after another declined, so a new user sees a notebook with a history.
 */

export interface DemoSignature {
  signer: string;
  type: 'reviewer' | 'participant';
  /** T signs, F declines (with the comment as the reason); absent leaves the request pending. */
  answer?: 'T' | 'F';
  comment?: string;
}

export interface DemoNote {
  project: string;
  writer: string;
  title: string;
  content: PmNode;
  /** Saved as version 1 (a note that is only being written is not). */
  saved: boolean;
  /** Requests made one after another, each answered (or left pending) before the next. */
  signatures: DemoSignature[];
}

const LIGAND_TABLE = 'tdemoligands0001';
const HPLC_TABLE = 'tdemohplc0000001';

export const DEMO_NOTES: DemoNote[] = [
  {
    project: 'Catalyst screening 2026',
    writer: 'minho.park@demo.eln',
    title: 'Ligand screen round 1',
    saved: true,
    signatures: [{ signer: 'seoyeon.lee@demo.eln', type: 'reviewer' }],
    content: doc(
      heading('Conditions'),
      paragraph('Pd(OAc)2 2 mol%, K2CO3 2 equiv, dioxane/water 4:1, 80 °C, 4 h.'),
      heading('Conversion by ligand'),
      table(LIGAND_TABLE, ['Ligand', 'Conversion (%)'], [
        ['PPh3', '42'],
        ['SPhos', '91'],
        ['XPhos', '88'],
        ['dppf', '67'],
      ]),
      chart(LIGAND_TABLE, { name: 'Conversion by ligand', label: 'Figure 1 · conversion after 4 h', xLabel: 'Ligand', yLabel: 'Conversion (%)', dataName: 'Conversion', from: { row: 1, col: 0 }, to: { row: 4, col: 1 } }),
      paragraph('SPhos is taken forward to the base screen.'),
    ),
  },
  {
    project: 'HPLC method validation',
    writer: 'yui.tanaka@demo.eln',
    title: 'Linearity',
    saved: true,
    signatures: [
      { signer: 'emma.wilson@demo.eln', type: 'reviewer', answer: 'F', comment: 'Please have QC review this one: I am away until the 30th.' },
      { signer: 'dohyun.yoon@demo.eln', type: 'reviewer', answer: 'T', comment: 'Linearity meets ICH Q2 (r² ≥ 0.999).' },
    ],
    content: doc(
      heading('Linearity, 50-150 % of nominal'),
      table(HPLC_TABLE, ['Level (%)', 'Area (mAU·s)'], [
        ['50', '1021'],
        ['80', '1630'],
        ['100', '2044'],
        ['120', '2449'],
        ['150', '3068'],
      ]),
      chart(HPLC_TABLE, { chartType: 'line', name: 'Calibration', label: 'Figure 1 · peak area against level', xLabel: 'Level (%)', yLabel: 'Area', dataName: 'Area', from: { row: 1, col: 0 }, to: { row: 5, col: 1 } }),
      paragraph('Slope 20.45, intercept 0.9, r² = 0.9998.'),
    ),
  },
  {
    project: 'Polymer stability',
    writer: 'minho.park@demo.eln',
    title: 'Week 2 observations',
    saved: false,
    signatures: [],
    content: doc(heading('Week 2'), paragraph('Films at 60 °C show slight yellowing at the edges; tensile tests are scheduled for Friday.')),
  },
];
