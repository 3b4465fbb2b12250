import { fieldMessage, toFieldErrors, type FieldError, type Language } from '@eln/shared';

type Issues = Parameters<typeof toFieldErrors>[0];

/** The part of a zod schema the forms use (the shared request schemas). */
export interface FormSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Issues } };
}

/** Field errors by field name (the first reason per field). */
export type FieldErrorMap = Partial<Record<string, FieldError>>;

export function toErrorMap(errors: readonly FieldError[]): FieldErrorMap {
  const map: FieldErrorMap = {};
  for (const error of errors) map[error.field] ??= error;
  return map;
}

/** Form values checked: the parsed data, or the reasons per field. */
export type Checked<T> = { ok: true; data: T } | { ok: false; errors: FieldErrorMap };

/** Checks form values with the same shared schema the server uses. */
export function validateForm<T>(schema: FormSchema<T>, values: unknown): Checked<T> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: toErrorMap(toFieldErrors(result.error.issues)) };
}

/** The localised message for one field, or undefined. */
export function fieldText(errors: FieldErrorMap, field: string, language: Language): string | undefined {
  const error = errors[field];
  return error ? fieldMessage(error, language) : undefined;
}

/**
 * Focuses the first invalid control inside `form` once the errors are drawn (next frame), unless the
 * user has moved on to another control meanwhile: the caret is never taken away from someone typing.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  const focusedBefore = document.activeElement;
  requestAnimationFrame(() => {
    const focused = document.activeElement;
    if (focused !== focusedBefore && focused !== document.body) return;
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
