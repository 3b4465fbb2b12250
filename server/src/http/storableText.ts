import { asStoredText, ERR, fieldMessage, isStorableText, type FieldError, type Language } from '@eln/shared';
import { AppError } from './errors.js';

/** At most this many offending fields are named in one answer. */
const MAX_REPORTED_FIELDS = 50;

/**
 * Every field of a parsed JSON body (at any depth, keys included) whose text cannot be stored as sent:
 * NUL, or a lone UTF-16 surrogate. Checked on the whole body, not only on the fields a schema names, so
 * that no call (and no field added later) can let such text reach the database or the audit trail.
 * Walks with its own stack, so a deeply nested body cannot overflow the call stack.
 */
export function unstorableTextFields(body: unknown): FieldError[] {
  // Nearly every body is clean: a walk that keeps no paths says so, and only a body that is not is
  // walked again to name its fields (a temp save's 160 kB block list costs a fraction of the full walk).
  if (!holdsUnstorableText(body)) return [];
  const found: FieldError[] = [];
  const report = (at: Place | null) => found.push({ field: pathOf(at), reason: 'invalidCharacters' });
  const stack: Array<{ value: unknown; at: Place | null }> = [{ value: body, at: null }];
  while (stack.length > 0 && found.length < MAX_REPORTED_FIELDS) {
    const { value, at } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) report(at);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], at: { parent: at, key: String(i) } });
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>).reverse()) {
        const place = { parent: at, key };
        if (isStorableText(key)) stack.push({ value: inner, at: place });
        else report(place);
      }
    }
  }
  return found;
}

/** Whether any string or key of the body, at any depth, is unstorable (its own stack: no depth limit). */
function holdsUnstorableText(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!isStorableText(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value && typeof value === 'object') {
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        if (!isStorableText(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Where a value sits in the body, linked to its parent (so that deep bodies cost no path copies). */
interface Place {
  parent: Place | null;
  key: string;
}

/** The field path as validation answers name it (`signers.0.userId`), its text made printable. */
function pathOf(place: Place | null): string {
  const keys: string[] = [];
  for (let p = place; p; p = p.parent) keys.push(asStoredText(p.key));
  return keys.reverse().join('.');
}

/** Refuses (400, 9001, each field with the reason `invalidCharacters`) a body with unstorable text. */
export function refuseUnstorableText(body: unknown, language: Language): void {
  const fields = unstorableTextFields(body);
  if (fields.length === 0) return;
  throw new AppError(ERR.validation, { data: { fields: fields.map((field) => ({ ...field, message: fieldMessage(field, language) })) } });
}
