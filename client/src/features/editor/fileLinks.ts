import { api } from '@eln/shared';
import { call } from '../../api';
import { createLinkCache } from './upload';

const cache = createLinkCache();
const pending = new Map<string, Promise<string>>();

/** Remembers the signed link an upload answered with. */
export function rememberLink(fileId: string, url: string): void {
  cache.put(fileId, url);
}

/**
 * A signed link to a stored file (`/v1/common/file/url`): links live an hour, so one is reused for
 * 50 minutes; callers asking at the same time share one request.
 */
export function fileLink(fileId: string): Promise<string> {
  const hit = cache.get(fileId);
  if (hit) return Promise.resolve(hit);
  let request = pending.get(fileId);
  if (!request) {
    request = call(api.files.link, { fileId })
      .then((answer) => {
        cache.put(fileId, answer.url);
        return answer.url;
      })
      .finally(() => pending.delete(fileId));
    pending.set(fileId, request);
  }
  return request;
}
