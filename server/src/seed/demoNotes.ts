import type { PmNode } from '@eln/shared';
import { chart, choice, doc, heading, image, paragraph, schemaBlock, table } from './demoContent.js';

/**
 * The demo's lab notes in every state: one still being written, one awaiting a reviewer, signed ones
 * (one after another reviewer declined, one with a photographed gel) and one in a project its leader
 * closed, so a new user sees a notebook with a history.
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
  /** The project's leader closes it once this note is signed (its notes become finished, F). */
  finishesProject?: boolean;
}

const LIGAND_TABLE = 'tdemoligands0001';
const SETUP_TABLE = 'tdemosetup000001';
const HPLC_TABLE = 'tdemohplc0000001';
const CLONE_TABLE = 'tdemoclones00001';
const MTT_TABLE = 'tdemomtt00000001';

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
      schemaBlock('REAGENT', 'Palladium(II) acetate'),
      table(
        SETUP_TABLE,
        ['Material', 'Amount', 'Unit', 'State'],
        [
          ['Pd(OAc)2', '4.5', choice('Units', 'mg'), choice('Sample states', 'S')],
          ['Aryl bromide', '1.0', choice('Units', 'mM'), choice('Sample states', 'L')],
          [choice('Solvents', 'H2O', 'co-solvent'), '2.0', choice('Units', 'mL'), choice('Sample states', 'L')],
        ],
      ),
      heading('Conversion by ligand'),
      table(
        LIGAND_TABLE,
        ['Ligand', 'Conversion (%)'],
        [
          ['PPh3', '42'],
          ['SPhos', '91'],
          ['XPhos', '88'],
          ['dppf', '67'],
        ],
      ),
      chart(LIGAND_TABLE, {
        name: 'Conversion by ligand',
        label: 'Figure 1 · conversion after 4 h',
        xLabel: 'Ligand',
        yLabel: 'Conversion (%)',
        dataName: 'Conversion',
        from: { row: 1, col: 0 },
        to: { row: 4, col: 1 },
      }),
      paragraph('SPhos is taken forward to the base screen.'),
    ),
  },
  {
    project: 'HPLC method validation',
    writer: 'yui.tanaka@demo.eln',
    title: 'Linearity',
    saved: true,
    signatures: [
      {
        signer: 'emma.wilson@demo.eln',
        type: 'reviewer',
        answer: 'F',
        comment: 'Please have QC review this one: I am away until the 30th.',
      },
      { signer: 'dohyun.yoon@demo.eln', type: 'reviewer', answer: 'T', comment: 'Linearity meets ICH Q2 (r² ≥ 0.999).' },
    ],
    content: doc(
      heading('Linearity, 50-150 % of nominal'),
      schemaBlock('EQUIPMENT', 'HPLC Agilent 1260'),
      table(
        HPLC_TABLE,
        ['Level (%)', 'Area (mAU·s)'],
        [
          ['50', '1021'],
          ['80', '1630'],
          ['100', '2044'],
          ['120', '2449'],
          ['150', '3068'],
        ],
      ),
      chart(HPLC_TABLE, {
        chartType: 'line',
        name: 'Calibration',
        label: 'Figure 1 · peak area against level',
        xLabel: 'Level (%)',
        yLabel: 'Area',
        dataName: 'Area',
        from: { row: 1, col: 0 },
        to: { row: 5, col: 1 },
      }),
      paragraph('Slope 20.45, intercept 0.9, r² = 0.9998.'),
    ),
  },
  {
    project: 'CRISPR knock-out line B7',
    writer: 'junho.jung@demo.eln',
    title: 'Clone genotyping PCR',
    saved: true,
    signatures: [
      { signer: 'yuna.kang@demo.eln', type: 'reviewer', answer: 'T', comment: 'Band pattern matches the sequencing of clones 3 and 5.' },
    ],
    content: doc(
      heading('Genotyping of B7 clones'),
      paragraph('Primers F2/R2 around the cut site, 32 cycles; 2 % agarose, 100 V for 40 min.'),
      image('Gel 1 · ladder, WT, 4 clones'),
      table(
        CLONE_TABLE,
        ['Clone', 'Band (bp)', 'Call'],
        [
          ['WT', '412', 'wild type'],
          ['3', '412 / 388', 'heterozygous'],
          ['5', '412 (faint)', 'check by sequencing'],
          ['8', '412 (faint)', 'check by sequencing'],
          ['11', '388', 'knock-out'],
        ],
      ),
      paragraph('Clone 11 goes forward to western blot.'),
    ),
  },
  {
    project: 'Cell viability assays',
    writer: 'yuna.kang@demo.eln',
    title: 'MTT assay, plate 1',
    saved: true,
    finishesProject: true,
    signatures: [
      { signer: 'hana.choi@demo.eln', type: 'reviewer', answer: 'T', comment: 'IC50 consistent with the pilot. Series 12 closed.' },
    ],
    content: doc(
      heading('Compound 12-4, 48 h, HeLa'),
      table(
        MTT_TABLE,
        ['Concentration (µM)', 'Viability (%)'],
        [
          ['0.1', '98'],
          ['1', '91'],
          ['5', '63'],
          ['10', '41'],
          ['50', '12'],
        ],
      ),
      chart(MTT_TABLE, {
        chartType: 'line',
        name: 'Dose response',
        label: 'Figure 1 · viability against concentration',
        xLabel: 'Concentration (µM)',
        yLabel: 'Viability (%)',
        dataName: 'Viability',
        from: { row: 1, col: 0 },
        to: { row: 5, col: 1 },
      }),
      paragraph('IC50 about 7 µM (four-parameter fit).'),
    ),
  },
  {
    project: 'Polymer stability',
    writer: 'minho.park@demo.eln',
    title: 'Week 2 observations',
    saved: false,
    signatures: [],
    content: doc(
      heading('Week 2'),
      paragraph('Films at 60 °C show slight yellowing at the edges; tensile tests are scheduled for Friday.'),
    ),
  },
];
