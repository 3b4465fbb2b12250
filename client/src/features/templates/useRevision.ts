import { api } from '@eln/shared';
import { useApiQuery } from '../../api/queries';

/** One checked-in revision as the viewer answers it: without `revision`, the latest approved one. */
export function useRevision(templateNo: number, revision?: number) {
  // Never the previous revision's blocks under the next one's title.
  return useApiQuery(api.templates.viewer, revision === undefined ? { templateNo } : { templateNo, revision }, { keepPrevious: false });
}
