import { describe, expect, it } from 'vitest';
import { ERR, LIMITS, type SchemaTypeDetail } from '@eln/shared';
import { THUMBNAIL_ACCEPT, THUMBNAIL_MAX_MB, thumbnailRefusal, thumbnailsOf } from './thumbnail';

describe('the thumbnail picker’s own check', () => {
  it('lets JPG, PNG and GIF images up to the image limit go, and names the thumbnail refusals otherwise', () => {
    expect(thumbnailRefusal('salt.png', 1000)).toBeNull();
    expect(thumbnailRefusal('salt.JPEG', LIMITS.imageBytes)).toBeNull();
    expect(thumbnailRefusal('anim.gif', 10)).toBeNull();
    expect(thumbnailRefusal('method.pdf', 10)).toBe(ERR.thumbnailType);
    expect(thumbnailRefusal('no-extension', 10)).toBe(ERR.thumbnailType);
    expect(thumbnailRefusal('big.png', LIMITS.imageBytes + 1)).toBe(ERR.thumbnailTooLarge);
    expect(thumbnailRefusal('big.png', Math.round(3.1 * 1024 * 1024))).toBe(ERR.thumbnailTooLarge);
  });

  it('offers images only, and says the limit in MB', () => {
    expect(THUMBNAIL_ACCEPT).toBe('.jpg,.jpeg,.png,.gif,image/*');
    expect(THUMBNAIL_MAX_MB).toBe(3);
  });

  it('keys a loaded type’s thumbnails by type and schema number', () => {
    const thumbnail = { fileId: 'f', url: '/files/f', smallUrl: '/files/s' };
    const detail = {
      thumbnail,
      schemas: [
        { schemaNo: 7, thumbnail: null },
        { schemaNo: 9, thumbnail },
      ],
    } as unknown as SchemaTypeDetail;
    expect([...thumbnailsOf(detail)]).toEqual([
      ['type', thumbnail],
      [7, null],
      [9, thumbnail],
    ]);
  });
});
