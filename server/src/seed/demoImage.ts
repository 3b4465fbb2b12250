import { png } from '../files/pngImage.js';

/** Where each lane of the demo plate read shows a band (fraction of the height) and how strong it is. */
const LANES: Array<Array<[number, number]>> = [
  [
    [0.2, 1],
    [0.35, 0.9],
    [0.5, 0.8],
    [0.65, 0.7],
    [0.8, 0.6],
  ],
  [[0.42, 0.95]],
  [
    [0.42, 0.7],
    [0.6, 0.3],
  ],
  [[0.42, 0.45]],
  [[0.42, 0.2]],
  [[0.6, 0.5]],
];

/**
 * A picture for the demo's viability note: dark lanes with glowing bands, as a stained plate or gel
 * photographed under UV looks. Drawn here so the demo brings no binary files.
 */
export function demoGelPng(width = 360, height = 200): Buffer {
  const laneWidth = width / (LANES.length + 1);
  return png(width, height, (x, y) => {
    const lane = Math.floor((x - laneWidth / 2) / laneWidth);
    const inLane = lane >= 0 && lane < LANES.length && Math.abs(((x - laneWidth / 2) % laneWidth) - laneWidth / 2) < laneWidth * 0.35;
    let glow = 0;
    if (inLane) for (const [at, strength] of LANES[lane]!) glow = Math.max(glow, strength * Math.exp(-(((y / height - at) * 60) ** 2)));
    const base = inLane ? 28 : 14;
    return [Math.round(base + glow * 120), Math.round(base + glow * 215), Math.round(base + 10 + glow * 160)];
  });
}

/** Each demo catalogue's colours: a soft field and the mark drawn on it. */
const THUMBNAIL_COLOURS: Record<string, { field: [number, number, number]; mark: [number, number, number] }> = {
  REAGENT: { field: [222, 238, 255], mark: [37, 99, 235] },
  EQUIPMENT: { field: [255, 240, 222], mark: [217, 119, 6] },
};

/** A catalogue's thumbnail for the demo: a round mark on a soft square, larger than lists show it. */
export function demoThumbnailPng(code: string, side = 320): Buffer {
  const { field, mark } = THUMBNAIL_COLOURS[code] ?? { field: [236, 236, 240], mark: [90, 90, 110] };
  return png(side, side, (x, y) => {
    const distance = Math.hypot(x - side / 2, y - side / 2) / (side / 2);
    const inside = Math.min(1, Math.max(0, (0.62 - distance) * 12));
    const ring = Math.min(1, Math.max(0, 1 - Math.abs(distance - 0.78) * 30)) * 0.5;
    const weight = Math.max(inside, ring);
    return [0, 1, 2].map((i) => Math.round(field[i]! * (1 - weight) + mark[i]! * weight)) as [number, number, number];
  });
}
