import { useEffect, useId, useRef, type ComponentPropsWithRef, type InputHTMLAttributes, type ReactNode } from 'react';

interface FieldFrameProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shows "length / maxLength" beside the label. */
  counter?: { length: number; max: number } | undefined;
  /** Marks the label as required (a visual cue; the schema decides). */
  required?: boolean | undefined;
  testId?: string | undefined;
  className?: string | undefined;
}

function fieldClass(error: string | undefined, className: string | undefined): string {
  return ['field', error ? 'field-invalid' : '', className ?? ''].filter(Boolean).join(' ');
}

function describedByOf(id: string, error: string | undefined, hint: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

function FieldLabel({
  id,
  label,
  counter,
  required,
}: {
  id: string;
  label: string;
  counter?: FieldFrameProps['counter'];
  required?: boolean | undefined;
}) {
  const over = counter ? counter.length > counter.max : false;
  return (
    <div className="field-label-row">
      <label className="field-label" htmlFor={id}>
        {label}
        {required ? (
          <span className="field-required" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {counter ? (
        <span className={over ? 'field-counter field-counter-over' : 'field-counter'} aria-hidden="true">
          {counter.length}/{counter.max}
        </span>
      ) : null}
    </div>
  );
}

function FieldMessage({
  id,
  error,
  hint,
  testId,
}: {
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
  testId?: string | undefined;
}) {
  if (error) {
    return (
      <p className="field-error" id={`${id}-error`} data-testid={testId ? `${testId}-error` : undefined}>
        {error}
      </p>
    );
  }
  return hint ? (
    <p className="field-hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
}

type TextFieldProps = Omit<ComponentPropsWithRef<'input'>, 'id' | 'required'> &
  FieldFrameProps & {
    /** A control at the input's end, such as a show-password button. */
    trailing?: ReactNode;
  };

/** A labelled input with its error beside it (announced through aria-describedby). */
export function TextField({ label, error, hint, trailing, testId, className, counter, required, ...input }: TextFieldProps) {
  const id = useId();
  const describedBy = describedByOf(id, error, hint);
  return (
    <div className={fieldClass(error, className)}>
      <FieldLabel id={id} label={label} counter={counter} required={required} />
      <div className="field-control">
        <input
          id={id}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-testid={testId}
          {...input}
        />
        {trailing ? <div className="field-trailing">{trailing}</div> : null}
      </div>
      <FieldMessage id={id} error={error} hint={hint} testId={testId} />
    </div>
  );
}

type TextAreaFieldProps = Omit<ComponentPropsWithRef<'textarea'>, 'id' | 'required'> & FieldFrameProps;

/** A labelled multi-line input, with an optional character counter. */
export function TextAreaField({ label, error, hint, testId, className, counter, required, rows = 3, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className={fieldClass(error, className)}>
      <FieldLabel id={id} label={label} counter={counter} required={required} />
      <textarea
        id={id}
        className="input textarea"
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedByOf(id, error, hint)}
        data-testid={testId}
        {...textarea}
      />
      <FieldMessage id={id} error={error} hint={hint} testId={testId} />
    </div>
  );
}

type SelectFieldProps = Omit<ComponentPropsWithRef<'select'>, 'id' | 'required'> & FieldFrameProps;

/** A labelled native select (options as children). */
export function SelectField({ label, error, hint, testId, className, counter, required, children, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={fieldClass(error, className)}>
      <FieldLabel id={id} label={label} counter={counter} required={required} />
      <div className="select-wrap">
        <select
          id={id}
          className="input select"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(id, error, hint)}
          data-testid={testId}
          {...select}
        >
          {children}
        </select>
      </div>
      <FieldMessage id={id} error={error} hint={hint} testId={testId} />
    </div>
  );
}

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  testId?: string;
  /** The mixed state (some of a group chosen). */
  indeterminate?: boolean;
};

export function Checkbox({ label, testId, className, indeterminate = false, ...input }: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <label className={['checkbox', className ?? ''].filter(Boolean).join(' ')}>
      <input ref={ref} type="checkbox" data-testid={testId} aria-checked={indeterminate ? 'mixed' : undefined} {...input} />
      <span className="checkbox-box" aria-hidden="true">
        <svg viewBox="0 0 16 16" width="12" height="12" className="checkbox-check">
          <path d="m3.5 8.5 3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <svg viewBox="0 0 16 16" width="12" height="12" className="checkbox-dash">
          <path d="M4 8h8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </span>
      <span className="checkbox-label">{label}</span>
    </label>
  );
}

type SwitchProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role'> & {
  label: ReactNode;
  description?: ReactNode;
  testId?: string;
};

/** An on/off switch (a checkbox with the switch role), with an optional line of explanation. */
export function Switch({ label, description, testId, className, ...input }: SwitchProps) {
  const id = useId();
  return (
    <label className={['switch', className ?? ''].filter(Boolean).join(' ')} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        data-testid={testId}
        aria-describedby={description ? `${id}-desc` : undefined}
        {...input}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">
        <span className="switch-label">{label}</span>
        {description ? (
          <span className="switch-description" id={`${id}-desc`}>
            {description}
          </span>
        ) : null}
      </span>
    </label>
  );
}
