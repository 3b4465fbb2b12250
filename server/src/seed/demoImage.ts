import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of the given size, each pixel coloured by `pixel`. */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) row.set(pixel(x, y), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

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
