import { z } from 'zod';
import { interpolate, type Language, type Localised } from './language.js';
import { EMAIL_PATTERN, PHONE_PATTERN, UNSTORABLE_CHARACTER } from './patterns.js';
import { LIMITS, PASSWORD_POLICY } from './limits.js';

/** Why a field was refused. The client shows the message beside the field; the server answers it in data.fields. */
export const FIELD_REASONS = {
  required: { en: 'This field is required.', ko: '필수 입력 항목입니다.', ja: '必須項目です。' },
  tooLong: { en: 'Use at most {max} characters.', ko: '최대 {max}자까지 입력할 수 있습니다.', ja: '{max}文字以内で入力してください。' },
  tooShort: { en: 'Use at least {min} characters.', ko: '최소 {min}자 이상 입력해 주세요.', ja: '{min}文字以上で入力してください。' },
  tooMany: { en: 'At most {max} entries are allowed.', ko: '최대 {max}개까지 가능합니다.', ja: '最大{max}件までです。' },
  tooFew: { en: 'Add at least {min}.', ko: '최소 {min}개 이상 추가해 주세요.', ja: '{min}件以上追加してください。' },
  tooSmall: { en: 'Use a value of at least {min}.', ko: '{min} 이상의 값을 입력해 주세요.', ja: '{min}以上の値を入力してください。' },
  tooBig: { en: 'Use a value of at most {max}.', ko: '{max} 이하의 값을 입력해 주세요.', ja: '{max}以下の値を入力してください。' },
  invalidEmail: {
    en: 'Enter an email address such as name@company.com.',
    ko: 'name@company.com 형식의 이메일을 입력해 주세요.',
    ja: 'name@company.com の形式でメールアドレスを入力してください。',
  },
  invalidPhone: {
    en: 'Enter a phone number such as 010-1234-5678.',
    ko: '010-1234-5678 형식의 전화번호를 입력해 주세요.',
    ja: '010-1234-5678 の形式で電話番号を入力してください。',
  },
  invalidFormat: { en: 'This value has the wrong format.', ko: '형식이 올바르지 않습니다.', ja: '形式が正しくありません。' },
  invalidType: { en: 'This value has the wrong type.', ko: '값의 형식이 올바르지 않습니다.', ja: '値の型が正しくありません。' },
  invalidValue: { en: 'This value is not allowed.', ko: '허용되지 않는 값입니다.', ja: '許可されていない値です。' },
  unknownField: { en: 'This field is not accepted here.', ko: '허용되지 않는 항목입니다.', ja: 'この項目は受け付けられません。' },
  passwordMismatch: { en: 'The passwords do not match.', ko: '비밀번호가 일치하지 않습니다.', ja: 'パスワードが一致しません。' },
  dateOrder: {
    en: 'The start date must not be after the end date.',
    ko: '시작일은 종료일보다 늦을 수 없습니다.',
    ja: '開始日は終了日より後にできません。',
  },
  invalidCharacters: {
    en: 'This text contains characters that cannot be stored (a NUL or a broken character).',
    ko: '저장할 수 없는 문자(NUL 또는 깨진 문자)가 포함되어 있습니다.',
    ja: '保存できない文字（NULまたは壊れた文字）が含まれています。',
  },
  duplicateName: {
    en: 'This name is already used here.',
    ko: '이 안에서 이미 사용 중인 이름입니다.',
    ja: 'この中で既に使われている名前です。',
  },
  alreadyAllowed: {
    en: 'This type is already allowed.',
    ko: '이미 허용된 형식입니다.',
    ja: '既に許可されている形式です。',
  },
  invalidDate: {
    en: 'Enter a date that exists, as YYYY-MM-DD.',
    ko: '존재하는 날짜를 YYYY-MM-DD 형식으로 입력해 주세요.',
    ja: '存在する日付をYYYY-MM-DDの形式で入力してください。',
  },
} as const satisfies Record<string, Localised>;

export type FieldReason = keyof typeof FIELD_REASONS;

export interface FieldError {
  field: string;
  reason: FieldReason;
  params?: Record<string, number | string>;
  message?: string;
}

function isReason(value: string): value is FieldReason {
  return Object.prototype.hasOwnProperty.call(FIELD_REASONS, value);
}

export function fieldMessage(error: Pick<FieldError, 'reason' | 'params'>, language: Language): string {
  return interpolate(FIELD_REASONS[error.reason][language], error.params);
}

/** Turns zod's issues into the product's field errors, one per field, first reason wins. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const push = (error: FieldError) => {
    if (seen.has(error.field)) return;
    seen.add(error.field);
    errors.push(error);
  };
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) push({ field: field ? `${field}.${key}` : key, reason: 'unknownField' });
      continue;
    }
    push({ field, ...reasonOf(issue) });
  }
  return errors;
}

/**
 * A reason a schema chose itself (`.min(1, { error: 'tooFew' })`), with the bound of its size issue when
 * its message names one: "Add at least 1.", never "Add at least {min}.".
 */
function chosenReason(reason: FieldReason, issue: z.core.$ZodIssue): Pick<FieldError, 'reason' | 'params'> {
  const names = (name: string) => FIELD_REASONS[reason].en.includes(`{${name}}`);
  if (issue.code === 'too_small' && names('min')) return { reason, params: { min: Number(issue.minimum) } };
  if (issue.code === 'too_big' && names('max')) return { reason, params: { max: Number(issue.maximum) } };
  return { reason };
}

function reasonOf(issue: z.core.$ZodIssue): Pick<FieldError, 'reason' | 'params'> {
  if (isReason(issue.message)) return chosenReason(issue.message, issue);
  switch (issue.code) {
    case 'invalid_type':
      return { reason: issue.input === undefined || issue.input === null ? 'required' : 'invalidType' };
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? { reason: 'required' } : { reason: 'tooShort', params: { min: Number(issue.minimum) } };
      }
      if (issue.origin === 'array' || issue.origin === 'set') return { reason: 'tooFew', params: { min: Number(issue.minimum) } };
      return { reason: 'tooSmall', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { reason: 'tooLong', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array' || issue.origin === 'set') return { reason: 'tooMany', params: { max: Number(issue.maximum) } };
      return { reason: 'tooBig', params: { max: Number(issue.maximum) } };
    case 'invalid_format':
      return { reason: issue.format === 'email' ? 'invalidEmail' : 'invalidFormat' };
    default:
      return { reason: 'invalidValue' };
  }
}

/* Field builders shared by every form and every route, so that a limit is written once. */

/**
 * Whether text can be stored and read back unchanged: no NUL (PostgreSQL text and jsonb refuse it) and
 * no lone surrogate (PostgreSQL would store U+FFFD instead, so what was stored is not what was sent).
 */
const MAYBE_UNSTORABLE = /[\u0000\uD800-\uDFFF]/;

export function isStorableText(value: string): boolean {
  // Most text holds neither a NUL nor any surrogate: one plain character class tells so quickly, and
  // only text with surrogates (emoji, rare CJK) is looked at for lone ones.
  return !MAYBE_UNSTORABLE.test(value) || !UNSTORABLE_CHARACTER.test(value);
}

/**
 * THE text rule: every text field of every request starts here. Further checks (trim, length, pattern)
 * chain on it; a refused character is reported first, as `invalidCharacters`.
 */
export const text = () => z.string().refine(isStorableText, { error: 'invalidCharacters' });

/** Required text, trimmed, at most `max` characters. */
export const requiredText = (max: number) => text().trim().min(1, { error: 'required' }).max(max);
/** Optional text, trimmed, at most `max` characters; empty means absent. */
export const optionalText = (max: number) => text().trim().max(max).optional().default('');

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `YYYY-MM-DD` names a day of the Gregorian calendar (year 1 to 9999): `2026-02-30` does not. */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** THE date rule: a calendar date as `YYYY-MM-DD` that exists. */
export const isoDate = text().regex(ISO_DATE, { error: 'invalidFormat' }).refine(isCalendarDate, { error: 'invalidDate' });
/** A date filter of a list: a date, or empty (or absent) for no bound. */
export const dateFilter = isoDate.optional().or(z.literal(''));

/** Whether the runtime knows the zone (`Asia/Seoul`), as a name or an offset (`+09:00`). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA zone's name: letters first (`Asia/Seoul`, `UTC`, `Etc/GMT+9`), never a bare offset. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** THE time zone rule: an IANA zone's name the runtime knows (exports read days in it, a person's screens show times in it). */
export const timeZoneField = text()
  .max(LIMITS.timeZone)
  .regex(ZONE_NAME, { error: 'invalidValue' })
  .refine(isTimeZone, { error: 'invalidValue' });

/** A record number (a serial key): a positive 32-bit integer, so that no number reaches the database out of range. */
export const recordNo = z.number().int().positive().max(LIMITS.maxRecordNo);

export const emailField = text()
  .trim()
  .min(1, { error: 'required' })
  .max(LIMITS.email)
  .regex(EMAIL_PATTERN, { error: 'invalidEmail' })
  .transform((value) => value.toLowerCase());

export const phoneField = text().trim().min(1, { error: 'required' }).regex(PHONE_PATTERN, { error: 'invalidPhone' });

/** A password being checked (sign-in, signing): any non-empty text, so that old passwords still work. */
export const passwordInput = text().min(1, { error: 'required' }).max(PASSWORD_POLICY.maxLength);

/** A password being chosen: the policy applies. */
export const newPassword = text().min(PASSWORD_POLICY.minLength).max(PASSWORD_POLICY.maxLength);

export const yesNo = z.enum(['Y', 'N']);

/**
 * Parses with zod, keeping each issue's input so that a missing field ("required") can be told from a
 * field of the wrong type. Throws zod's error; use `toFieldErrors` on its issues.
 */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  return schema.parse(data, { reportInput: true });
}

export function safeParseInput<S extends z.ZodType>(schema: S, data: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(data, { reportInput: true });
}
