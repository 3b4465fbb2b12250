export { ApiError, apiErrorText, fieldErrorsOf, isApiError, retryAfterOf } from './errors';
export { call, refreshSession } from './call';
