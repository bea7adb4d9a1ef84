import { useState, type FormEvent } from 'react';
import { notify } from '../app/notify';
import { serverFieldErrors } from './form-rules';

/** a form's problems by field (a falsy entry: none) */
type Problems = object;

export interface EntityDialogOptions<V extends object, E extends Problems> {
  /** the form's values when it opens (from the record edited, or the defaults) */
  initial: () => V;
  /** the rules' problems of the values as they are (a falsy entry: none) */
  validate: (values: V) => E;
  /** the text a field's problem shows */
  problemText: (key: Extract<keyof E, string>, problem: string) => string;
}

export interface EntityDialog<V extends object, E extends Problems> {
  values: V;
  setValues(update: (values: V) => V): void;
  /** changes a field and forgets the server's refusal of it */
  set<K extends keyof V>(key: K, value: V[K]): void;
  /** the field was left: its rule's text shows from now on */
  touch(key: keyof V): void;
  /** the form was sent at least once (or its problems shown as if it had) */
  submitted: boolean;
  /** every field's problem shows from now on, as after a send */
  showProblems(): void;
  /** forgets the fields left and the send: no rule's text shows until a field is left or the form sent again (a stepper's next step) */
  clearTouched(): void;
  errors: E;
  serverErrors: Record<string, string>;
  setServerErrors(update: Record<string, string> | ((errors: Record<string, string>) => Record<string, string>)): void;
  /** the rule's text once the field was left or the form sent, else what the server said of it */
  errorOf(key: Extract<keyof V, string> | Extract<keyof E, string>): string | undefined;
  /**
   * The form's submit: marks it sent, stops on a rule's problem, else runs `save`; when the server refuses,
   * its field errors show under the fields and `failed` (default: the error's toast) says the rest.
   */
  handleSubmit(
    save: (values: V) => Promise<void>,
    failed?: (err: unknown, fields: Record<string, string>) => void,
  ): (e?: FormEvent) => Promise<void>;
}

/**
 * The add/edit dialogs' form cycle (spec 02 §5): values, the fields left, the rules' problems shown once a field
 * was left or the form sent, the server's field errors (`ERR_VALIDATION` details) until the field changes.
 */
export function useEntityDialog<V extends object, E extends Problems>(options: EntityDialogOptions<V, E>): EntityDialog<V, E> {
  const [values, setValues] = useState<V>(options.initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors = options.validate(values);

  function set<K extends keyof V>(key: K, value: V[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setServerErrors((e) => (e[key as string] ? { ...e, [key]: '' } : e));
  }

  function errorOf(key: Extract<keyof V, string> | Extract<keyof E, string>): string | undefined {
    const problem = (errors as Record<string, string | null | undefined>)[key];
    if (problem && (submitted || touched[key as keyof V])) return options.problemText(key as Extract<keyof E, string>, problem);
    return serverErrors[key] || undefined;
  }

  function handleSubmit(save: (values: V) => Promise<void>, failed?: (err: unknown, fields: Record<string, string>) => void) {
    return async (e?: FormEvent) => {
      e?.preventDefault();
      setSubmitted(true);
      if (Object.values(errors).some(Boolean)) return;
      try {
        await save(values);
      } catch (err) {
        const fields = serverFieldErrors(err);
        if (failed) failed(err, fields);
        else notify.error(err);
        setServerErrors(fields);
      }
    };
  }

  return {
    values,
    setValues,
    set,
    touch: (key) => setTouched((s) => ({ ...s, [key]: true })),
    submitted,
    showProblems: () => setSubmitted(true),
    clearTouched: () => {
      setTouched({});
      setSubmitted(false);
    },
    errors,
    serverErrors,
    setServerErrors,
    errorOf,
    handleSubmit,
  };
}
