/**
 * Lab text for the search benchmark: sentences as labs write them in Korean, Japanese and English, with
 * lot codes (`24-117`), concentrations with units (`10 mM`), chemical names with digits and hyphens
 * (`2-propanol`), times, temperatures and sample codes. Deterministic: the same seed gives the same text.
 */

/** A small fast seeded generator (mulberry32), so every run builds the same dataset. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const int = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const decimal = (random: Random, low: number, high: number, digits = 1) => (low + random() * (high - low)).toFixed(digits);

const CHEMICALS = [
  'sodium chloride',
  'Tris-HCl',
  'HEPES',
  '2-propanol',
  'ethanol',
  'methanol',
  'acetonitrile',
  'EDTA',
  'DMSO',
  'glycerol',
  'magnesium sulfate',
  'potassium phosphate',
  'ammonium sulfate',
  'sodium dodecyl sulfate',
  '2-mercaptoethanol',
  'dithiothreitol',
  'imidazole',
  'acetic acid',
  'hydrochloric acid',
  'sodium hydroxide',
  'Triton X-100',
  'Tween-20',
  'bovine serum albumin',
  'trypsin',
  'lysozyme',
  'IPTG',
  'ampicillin',
  'kanamycin',
  '1,4-dioxane',
  'N,N-dimethylformamide',
  'tetrahydrofuran',
  'dichloromethane',
  'ethyl acetate',
  'hexane',
  'toluene',
  'sodium bicarbonate',
  'calcium chloride',
  'zinc acetate',
  'copper(II) sulfate',
  'L-glutamine',
] as const;
const CHEMICALS_KO = [
  '염산',
  '묽은염산',
  '진한염산',
  '수산화나트륨',
  '염화나트륨',
  '황산마그네슘',
  '에탄올',
  '메탄올',
  '아세토니트릴',
  '인산완충액',
  '트리스완충액',
  '글리세롤',
  '아세트산',
  '황산암모늄',
  '이소프로판올',
  '탄산수소나트륨',
  '염화칼슘',
  '질산은',
  '과산화수소',
  '증류수',
] as const;
const CHEMICALS_JA = [
  '塩酸',
  '希塩酸',
  '水酸化ナトリウム',
  '塩化ナトリウム',
  '硫酸マグネシウム',
  'エタノール',
  'メタノール',
  'アセトニトリル',
  'リン酸緩衝液',
  'トリス緩衝液',
  'グリセロール',
  '酢酸',
  '硫酸アンモニウム',
  'イソプロパノール',
  '炭酸水素ナトリウム',
  '塩化カルシウム',
  '硝酸銀',
  '過酸化水素',
  '蒸留水',
  '緩衝液',
] as const;
const UNITS = ['mM', 'M', 'µM', 'mg/mL', '% (w/v)', '% (v/v)', 'g/L', 'nM'] as const;
const SOLVENTS = ['water', 'ethanol', 'DMSO', 'PBS', 'methanol', 'acetonitrile'] as const;
const COLOURS = ['pale yellow', 'colourless', 'turbid', 'deep blue', 'light pink', 'brown'] as const;
const INSTRUMENTS = ['HPLC', 'LC-MS', 'GC-MS', 'UV-Vis', 'FT-IR', 'NMR', 'qPCR', 'ELISA reader'] as const;

const lot = (random: Random) => `${int(random, 19, 26)}-${String(int(random, 1, 999)).padStart(3, '0')}`;
const sample = (random: Random) => `S${int(random, 1, 40)}-${String(int(random, 1, 9999)).padStart(4, '0')}`;
const conc = (random: Random) =>
  `${pick(random, ['0.1', '0.5', '1', '2', '5', '10', '20', '50', '100', '150', '250'])} ${pick(random, UNITS)}`;

const ENGLISH: Array<(r: Random) => string> = [
  (r) => `Prepared ${conc(r)} ${pick(r, CHEMICALS)} in ${pick(r, SOLVENTS)}, lot ${lot(r)}.`,
  (r) => `pH drift of ${decimal(r, 0.05, 0.6, 2)} observed after ${int(r, 5, 120)} min at ${int(r, 4, 37)} °C.`,
  (r) => `Added ${decimal(r, 0.1, 25)} mL of ${pick(r, CHEMICALS)} (lot ${lot(r)}) dropwise; the solution turned ${pick(r, COLOURS)}.`,
  (r) => `Centrifuged at ${pick(r, ['4,000', '8,000', '12,000', '15,000'])} rpm for ${int(r, 2, 30)} min; supernatant discarded.`,
  (r) => `Calibrated the pH meter with buffers 4.01 and 7.00; slope ${decimal(r, 95, 101)}%.`,
  (r) => `Yield ${decimal(r, 40, 98)}% after recrystallisation from ${pick(r, CHEMICALS)}.`,
  (r) => `Sample ${sample(r)} stored at -${pick(r, ['20', '80'])} °C in freezer ${int(r, 1, 6)}.`,
  (r) => `${pick(r, INSTRUMENTS)} run ${sample(r)}: retention time ${decimal(r, 1, 25, 2)} min, purity ${decimal(r, 85, 99.9)}%.`,
  (r) => `Buffer exchanged into ${conc(r)} ${pick(r, CHEMICALS)} overnight at 4 °C.`,
  (r) => `Titrated with ${pick(r, CHEMICALS)} to pH ${decimal(r, 2, 11)}; endpoint at ${decimal(r, 1, 30)} mL.`,
  (r) => `Observed precipitate after adding ${pick(r, CHEMICALS)}; filtered through a 0.22 µm membrane.`,
  (r) => `Repeated the assay in triplicate; CV ${decimal(r, 0.5, 12)}%, blank ${decimal(r, 0.01, 0.2, 3)} AU.`,
];
const KOREAN: Array<(r: Random) => string> = [
  (r) => `${pick(r, CHEMICALS_KO)} ${conc(r)}를 ${pick(r, ['증류수', '에탄올', '인산완충액'])}에 녹여 준비함 (로트 ${lot(r)}).`,
  (r) => `묽은염산으로 pH ${decimal(r, 2, 8)}까지 적정하였다.`,
  (r) => `${int(r, 5, 120)}분 후 pH 변화 관찰, 온도 ${int(r, 4, 37)} °C.`,
  (r) => `원심분리 ${pick(r, ['4,000', '8,000', '12,000'])} rpm, ${int(r, 2, 30)}분, 상층액 제거.`,
  (r) => `시약 ${pick(r, CHEMICALS_KO)} 재고 확인, 로트 ${lot(r)} 사용.`,
  (r) => `완충용액 ${conc(r)} 제조 후 0.22 µm 필터로 여과함.`,
  (r) => `시료 ${sample(r)}를 -${pick(r, ['20', '80'])} °C 냉동고에 보관하였다.`,
  (r) => `${pick(r, INSTRUMENTS)} 분석 결과 순도 ${decimal(r, 85, 99.9)}%, 수율 ${decimal(r, 40, 98)}%.`,
  (r) => `반응 혼합물이 ${pick(r, ['노란색', '무색', '탁한', '파란색'])}으로 변함, ${pick(r, CHEMICALS_KO)} 추가.`,
  (r) => `실험 반복 3회, 변동계수 ${decimal(r, 0.5, 12)}%.`,
];
const JAPANESE: Array<(r: Random) => string> = [
  (r) => `${pick(r, CHEMICALS_JA)}を${conc(r)}で調製した（ロット ${lot(r)}）。`,
  (r) => `${pick(r, ['緩衝液', 'リン酸緩衝液', 'トリス緩衝液'])}のpHを${decimal(r, 2, 11)}に調整した。`,
  (r) => `${int(r, 2, 30)}分間遠心分離し、上清を除去した。`,
  (r) => `${pick(r, CHEMICALS_JA)}で滴定、終点pH ${decimal(r, 2, 11)}。`,
  (r) => `試料${sample(r)}を-${pick(r, ['20', '80'])} °Cで保存した。`,
  (r) => `${pick(r, INSTRUMENTS)}測定：保持時間${decimal(r, 1, 25, 2)}分、純度${decimal(r, 85, 99.9)}%。`,
  (r) => `${int(r, 5, 120)}分後にpHのドリフトを確認した。`,
  (r) => `沈殿が生じたため、${pick(r, CHEMICALS_JA)}を追加してろ過した。`,
];
const HEADINGS = {
  en: ['Materials', 'Procedure', 'Results', 'Observations', 'Calibration', 'Conclusion', 'Sample preparation'],
  ko: ['재료', '실험 방법', '결과', '관찰', '보정', '결론', '시료 준비'],
  ja: ['材料', '実験方法', '結果', '観察', '校正', '結論', '試料調製'],
} as const;
const SENTENCES = { en: ENGLISH, ko: KOREAN, ja: JAPANESE } as const;
const TITLES = {
  en: ['Buffer preparation', 'Protein purification', 'HPLC assay', 'Titration', 'Stability test', 'Cell culture', 'Synthesis'],
  ko: ['완충액 제조', '단백질 정제', '적정 실험', '안정성 시험', '세포 배양', '합성 실험', '염산 희석'],
  ja: ['緩衝液の調製', 'タンパク質精製', '滴定実験', '安定性試験', '細胞培養', '合成実験', '塩酸の希釈'],
} as const;

export type Language = keyof typeof SENTENCES;

/** Half the notes in English, three in ten in Korean, two in ten in Japanese. */
export function languageOf(random: Random): Language {
  const x = random();
  return x < 0.5 ? 'en' : x < 0.8 ? 'ko' : 'ja';
}

/** A block: a heading (one in six blocks, weighted like the editor's headings), or one to three sentences. */
export function labBlock(random: Random, language: Language): { heading: string; body: string } {
  if (random() < 1 / 6) return { heading: pick(random, HEADINGS[language]), body: '' };
  const sentences = Array.from({ length: int(random, 1, 3) }, () => pick(random, SENTENCES[language])(random));
  // One sentence in ten from another language, as bilingual notes do.
  if (random() < 0.1) sentences.push(pick(random, SENTENCES[languageOf(random)])(random));
  return { heading: '', body: sentences.join(' ') };
}

export function labTitle(random: Random, language: Language): string {
  return `${pick(random, TITLES[language])} ${lot(random)}`;
}

/** An attachment's text: a report of about forty sentences in lines. */
export function labReport(random: Random, language: Language): string {
  return Array.from({ length: 40 }, () => pick(random, SENTENCES[language])(random)).join('\n');
}

export function attachmentName(random: Random): string {
  return `${pick(random, ['assay', 'report', 'sop', 'calibration', 'batch-record', 'coa'])}-${lot(random)}.${pick(random, ['pdf', 'docx', 'xlsx', 'txt'])}`;
}
