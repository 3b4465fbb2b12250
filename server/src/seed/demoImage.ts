import { png } from '../files/pngImage.js';

/** Where each lane of the demo plate read shows a band (fraction of the height) and how strong it is. */
const LANES: Array<Array<[number, number]>> = [
  [[0.2, 1], [0.35, 0.9], [0.5, 0.8], [0.65, 0.7], [0.8, 0.6]],
  [[0.42, 0.95]],
  [[0.42, 0.7], [0.6, 0.3]],
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
