import { Box, Menu, Portal } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import type { ReactElement } from 'react';
import { toggleQueue } from './toggle-queue';

/** The queue checklist, loaded when the filter is first opened. */
export default function QueueFilterMenu(props: {
  trigger: ReactElement;
  queues: QueueDto[];
  selected: number[];
  onChange(ids: number[]): void;
}) {
  const { queues, selected, onChange } = props;
  const all = queues.map((q) => q.id);
  return (
    <Menu.Root defaultOpen lazyMount unmountOnExit closeOnSelect={false}>
      <Menu.Trigger asChild>{props.trigger}</Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {queues.map((q) => (
              <Menu.CheckboxItem
                key={q.id}
                value={String(q.id)}
                checked={selected.length === 0 || selected.includes(q.id)}
                onCheckedChange={() => onChange(toggleQueue(selected, all, q.id))}
                data-testid={`queue-option-${q.id}`}
              >
                <Box w="3" h="3" borderRadius="full" flexShrink={0} style={{ background: q.color }} />
                {q.name}
                <Menu.ItemIndicator />
              </Menu.CheckboxItem>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
