import { ERR } from '../errors.js';

/** Digits with at most one decimal point: what "a number" means for a version. */
const DECIMAL = /^\d+(\.\d+)?$/;
/** A non-zero digit after the point: the number is not whole (and so not 0). */
const FRACTION = /\.\d*[1-9]/;

type VersionRefusal = typeof ERR.templateVersionInvalid | typeof ERR.templateVersionNotNumber | typeof ERR.templateVersionForm;

/**
 * Why a text that parseTemplateVersion refused is not a version, as the code whose message says so: it is
 * not a number (7011); it is 0 or a whole number (7004, the spec's rule); or it is such a number written in
 * a form versions are not written in (7012). Judged apart from the parsing rule, so that the message names
 * the rule the text broke rather than one it kept.
 */
export function templateVersionRefusal(value: string): VersionRefusal {
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return ERR.templateVersionNotNumber;
  if (!FRACTION.test(trimmed)) return ERR.templateVersionInvalid;
  return ERR.templateVersionForm;
}
