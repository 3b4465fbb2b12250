export { ApiError, apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from './errors';
export { call, refreshSession } from './call';
export { apiQueryKey, queryClient, useApiMutation, useApiQuery, useLoadedQuery, type Loaded } from './queries';
