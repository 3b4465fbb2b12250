import { useRef, useState, type Dispatch, type FormEvent, type RefObject, type SetStateAction } from 'react';
import { apiErrorText, fieldErrorsOf } from '../api';
import { currentLanguage } from '../i18n';
import { fieldText, focusFirstInvalid, toErrorMap, type Checked, type FieldErrorMap } from './forms';

/** What a form's own checks and error handling may change. */
export interface FormControls {
  setErrors: Dispatch<SetStateAction<FieldErrorMap>>;
  setFailure(failure: string | null): void;
  /** Puts the server's field errors beside the fields; false when the error carries none. */
  showFieldErrors(error: unknown): boolean;
  focusFirstInvalid(): void;
}

interface FormSubmitOptions<T> {
  /** While true, submitting does nothing (for example during a sign-in lockout). */
  blocked?: boolean;
  /** Clears what the last attempt showed beyond the field errors and the failure. */
  reset?(): void;
  /** Checks the values, usually with `validateForm` and the shared request schema the server uses too. */
  check(form: FormControls): Checked<T>;
  send(data: T): Promise<void>;
  /** A failed send. Without it, the server's field errors go beside the fields and anything else becomes `failure`. */
  onError?(error: unknown, form: FormControls): void;
  /** The form goes away when it succeeds (navigates or closes): it stays busy until then, so its button does not flash back. */
  leavesOnSuccess?: boolean;
}

export interface FormSubmit extends FormControls {
  ref: RefObject<HTMLFormElement | null>;
  errors: FieldErrorMap;
  failure: string | null;
  busy: boolean;
  /** For the form's `onSubmit`: starts the check and the send and returns at once; how they end shows in `busy`, `errors` and `failure`. */
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** A field's localised error, for its `error` prop. */
  fieldError(field: string): string | undefined;
}

/**
 * A form's submit: check the values (invalid: show why beside the fields and focus the first), send them
 * once at a time, and show why a send failed.
 */
export function useFormSubmit<T>({
  blocked = false,
  reset,
  check,
  send,
  onError,
  leavesOnSuccess = false,
}: FormSubmitOptions<T>): FormSubmit {
  const language = currentLanguage();
  const ref = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const controls: FormControls = {
    setErrors,
    setFailure,
    showFieldErrors: (error) => {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      return fields.length > 0;
    },
    focusFirstInvalid: () => focusFirstInvalid(ref.current),
  };
  const showError = (error: unknown) => {
    if (onError) onError(error, controls);
    else if (!controls.showFieldErrors(error)) setFailure(apiErrorText(error, language));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || blocked) return;
    setFailure(null);
    reset?.();
    const checked = check(controls);
    if (!checked.ok) {
      setErrors(checked.errors);
      controls.focusFirstInvalid();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await send(checked.data);
      if (!leavesOnSuccess) setBusy(false);
    } catch (error) {
      setBusy(false);
      showError(error);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => void submit(event);

  return { ...controls, ref, errors, failure, busy, onSubmit, fieldError: (field) => fieldText(errors, field, language) };
}
