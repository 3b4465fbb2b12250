import { describe, expect, it } from 'vitest';
import { ERR } from '@eln/shared';
import { png } from './pngImage.js';
import { fitWithin, imageSize, makeSmallCopy } from './thumbnail.js';

describe('thumbnail sizes', () => {
  it('reads the size a PNG, a GIF and a JPEG declare without decoding them', () => {
    expect(
      imageSize(
        'png',
        png(31, 17, () => [0, 0, 0]),
      ),
    ).toEqual({ width: 31, height: 17 });
    const gif = Buffer.from('GIF89a\x40\x01\xc8\x00', 'latin1');
    expect(imageSize('gif', gif)).toEqual({ width: 320, height: 200 });
    // SOI, an APP0 segment of 16 bytes, then a baseline frame header of 480 × 640.
    const jpeg = Buffer.from([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0x00,
      0x10,
      ...new Array<number>(14).fill(0),
      0xff,
      0xc0,
      0x00,
      0x11,
      0x08,
      0x02,
      0x80,
      0x01,
      0xe0,
      0x03,
    ]);
    expect(imageSize('jpg', jpeg)).toEqual({ width: 480, height: 640 });
    expect(imageSize('jpg', Buffer.from([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
    expect(imageSize('png', Buffer.from('short'))).toBeNull();
  });

  it('fits within the side, keeping the shape, never enlarging', () => {
    expect(fitWithin({ width: 1000, height: 500 }, 256)).toEqual({ width: 256, height: 128 });
    expect(fitWithin({ width: 300, height: 3000 }, 256)).toEqual({ width: 26, height: 256 });
    expect(fitWithin({ width: 40, height: 30 }, 256)).toEqual({ width: 40, height: 30 });
    expect(fitWithin({ width: 5000, height: 1 }, 256)).toEqual({ width: 256, height: 1 });
  });

  it('makes a small PNG of a PNG, and refuses a picture declared too large to decode', async () => {
    const copy = await makeSmallCopy(
      'png',
      png(512, 256, (x, y) => [x % 256, y % 256, 0]),
    );
    expect(copy.extension).toBe('png');
    expect(copy.size).toEqual({ width: 256, height: 128 });
    const bomb = png(1, 1, () => [0, 0, 0]);
    bomb.writeUInt32BE(100_000, 16);
    await expect(makeSmallCopy('png', bomb)).rejects.toMatchObject({ code: ERR.thumbnailUnreadable });
  });
});
