import { type ErrorCode } from '@eln/shared';

/**
 * A refusal the client should see: its catalogue code decides the HTTP class and the localised message.
 * Throw it from any handler; the one error handler turns it into the envelope.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly options: { params?: Record<string, string | number>; data?: unknown; cause?: unknown } = {},
  ) {
    super(code, { cause: options.cause });
    this.name = 'AppError';
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
