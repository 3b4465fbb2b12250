import { ERR, IMAGE_TYPES, LIMITS, type ErrorCode, type SchemaThumbnail, type SchemaTypeDetail } from '@eln/shared';
import { acceptFor, checkUpload } from '../editor/upload';

/** What the thumbnail picker offers: the image types, by extension and MIME. */
export const THUMBNAIL_ACCEPT = acceptFor('image', IMAGE_TYPES);

/** The size a thumbnail may have, in MB as the messages say it. */
export const THUMBNAIL_MAX_MB = LIMITS.imageBytes / (1024 * 1024);

/**
 * The client's check of a picked thumbnail before it is sent (the server checks the content and has the
 * last word): an image type by its name (4007) and at most the image limit (4008); null when it may go.
 */
export function thumbnailRefusal(name: string, size: number): ErrorCode | null {
  const check = checkUpload(name, size, 'image');
  if (check.ok) return null;
  return check.code === ERR.fileTooLarge ? ERR.thumbnailTooLarge : ERR.thumbnailType;
}

/** Whose thumbnail: the type's (`type`) or a child schema's (its number). */
export type ThumbnailKey = 'type' | number;

/** The thumbnails a loaded type shows, the type's and each of its schemas', by key. */
export function thumbnailsOf(detail: SchemaTypeDetail): Map<ThumbnailKey, SchemaThumbnail | null> {
  return new Map<ThumbnailKey, SchemaThumbnail | null>([
    ['type', detail.thumbnail],
    ...detail.schemas.map((schema) => [schema.schemaNo, schema.thumbnail] as const),
  ]);
}
