export { ApiError, apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from './errors';
export type { CallOptions } from './client';
export { call, refreshSession } from './call';
export { apiQueryKey, queryClient, useApiMutation, useApiQuery } from './queries';
