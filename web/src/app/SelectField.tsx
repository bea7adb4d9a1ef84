import { Field, NativeSelect } from '@chakra-ui/react';

/** A labelled select of a few named things (a queue, a connection), with its empty choice and its error. */
export function SelectField(props: {
  label: string;
  value: number | '';
  onChange(value: number | ''): void;
  options: ReadonlyArray<{ id: number; name: string }>;
  emptyLabel: string;
  required?: boolean;
  /** the error text, shown when set */
  error?: string | false;
  testId: string;
}) {
  return (
    <Field.Root required={props.required} invalid={Boolean(props.error)}>
      <Field.Label>{props.label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          value={props.value}
          onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : '')}
          data-testid={props.testId}
        >
          <option value="">{props.emptyLabel}</option>
          {props.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}
