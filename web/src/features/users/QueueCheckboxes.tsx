import { Box, Checkbox, Stack, Text } from '@chakra-ui/react';

/** A labelled list of the company's queues to tick (the user's queues). */
export function QueueCheckboxes(props: {
  label: string;
  emptyLabel: string;
  queues: ReadonlyArray<{ id: number; name: string; color: string }>;
  value: number[];
  onChange(ids: number[]): void;
  testId: string;
}) {
  const { queues, value, onChange } = props;
  return (
    <Box data-testid={props.testId}>
      <Text textStyle="sm" fontWeight="medium" mb="2">
        {props.label}
      </Text>
      {queues.length === 0 && (
        <Text textStyle="sm" color="fg.muted">
          {props.emptyLabel}
        </Text>
      )}
      <Stack gap="1.5">
        {queues.map((q) => (
          <Checkbox.Root
            key={q.id}
            size="sm"
            checked={value.includes(q.id)}
            onCheckedChange={(e) => onChange(e.checked === true ? [...value, q.id] : value.filter((id) => id !== q.id))}
            data-queue-id={q.id}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>
              <Box as="span" display="inline-block" w="2.5" h="2.5" borderRadius="full" mr="2" style={{ background: q.color }} />
              {q.name}
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
    </Box>
  );
}
