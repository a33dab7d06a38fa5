/// <reference lib="dom" />
// The pages' forms: a labelled field that shows its own error, and a form that holds its fields'
// values, sends them, and says how that went (the refusal beside the fields it names, the rest
// under them, a line once it is done). A page declares its fields and what sending does; the
// rest is here.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { ProblemMessage, useSubmit } from './parts.tsx';

export function Field(props: {
  label: string;
  /** As the server names it in a refusal's errors (`price.amount`): its error is shown here. */
  name: string;
  type?: string;
  value: string;
  onInput: (value: string) => void;
  problem?: ApiProblem | undefined;
  /** Shown instead of the problem's error for this field (a field the server knows by another name). */
  error?: string | undefined;
  autocomplete?: string;
  required?: boolean;
}) {
  const message = props.error ?? props.problem?.fieldError(props.name);
  const id = `field-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        aria-invalid={message ? 'true' : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onInput={(event) => props.onInput((event.target as HTMLInputElement).value)}
      />
      {message && (
        <p class="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

/** A labelled choice of a few values: a select that shows its own error, as Field does. */
export function Choice(props: {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  /** Each value and how it is said. */
  options: Readonly<Record<string, string>>;
  problem?: ApiProblem | undefined;
}) {
  const message = props.problem?.fieldError(props.name);
  const id = `field-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        aria-invalid={message ? 'true' : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(event) => props.onInput((event.target as HTMLSelectElement).value)}
      >
        {Object.entries(props.options).map(([value, said]) => (
          <option key={value} value={value}>
            {said}
          </option>
        ))}
      </select>
      {message && (
        <p class="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

/** A form's values by field name, and what sending them does. */
export function useForm<Values extends Record<string, string>>(initial: Values, send: (values: Values) => Promise<void>) {
  const [values, setValues] = useState(initial);
  const sending = useSubmit(() => send(values));
  return {
    ...sending,
    values,
    names: Object.keys(initial),
    /** Back to the first values (a password field, once the password is set). */
    reset: () => setValues(initial),
    /** What a Field of this value takes: its name, its value and its setter, and the form's refusal. */
    field: (name: keyof Values & string) => ({
      name,
      value: values[name] ?? '',
      onInput: (value: string) => setValues((before) => ({ ...before, [name]: value })),
      problem: sending.problem,
    }),
  };
}

export type FormState = ReturnType<typeof useForm>;

/**
 * A form of useForm's: its fields (the children), the refusal's other errors, `sent` once it was
 * sent, and its buttons. An inline form (a row) says the refusal after its buttons.
 */
export function Form(props: {
  form: Pick<FormState, 'submit' | 'busy' | 'problem' | 'done' | 'names'>;
  /** The submit button's words, and while sending. */
  submit: string;
  sending?: string;
  /** Said once it was sent. */
  sent?: ComponentChildren;
  /** Buttons beside the submit button. */
  actions?: ComponentChildren;
  labelledBy?: string;
  label?: string;
  inline?: boolean;
  class?: string;
  children: ComponentChildren;
}) {
  const { form } = props;
  const problem = <ProblemMessage problem={form.problem} fields={form.names} />;
  const button = (
    <button type="submit" disabled={form.busy}>
      {form.busy && props.sending ? props.sending : props.submit}
    </button>
  );
  return (
    <form
      onSubmit={form.submit}
      aria-busy={form.busy}
      aria-labelledby={props.labelledBy}
      aria-label={props.label}
      class={[props.inline ? 'inline' : '', props.class ?? ''].join(' ').trim() || undefined}
    >
      {props.children}
      {!props.inline && problem}
      {props.sent && form.done && !form.problem && (
        <p role="status" class="ok">
          {props.sent}
        </p>
      )}
      {props.actions ? (
        <div class="actions">
          {button}
          {props.actions}
        </div>
      ) : (
        button
      )}
      {props.inline && problem}
    </form>
  );
}
