import type { StatusCode } from './errors.js';
import type { FieldError } from './validation.js';

/** Every API answer: a four-character status ("0000" is success), a localised message and the data. */
export interface ApiResponse<T = unknown> {
  status: StatusCode;
  message: string;
  data: T;
}

/** The data of a 400 validation answer. */
export interface ValidationErrorData {
  fields: FieldError[];
}

/** Base path of every call. */
export const API_BASE = '/server';
