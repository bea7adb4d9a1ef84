import { Box, Button, Menu, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface PickOption {
  id: number;
  name: string;
  color?: string;
}

/** Adds or removes an id of a selection (an empty selection filters nothing). */
export function togglePick(selected: number[], id: number): number[] {
  return selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
}

/**
 * A filter of the ticket lists over a few named things (tags, users): a checklist in a menu; the button
 * says how many are picked.
 */
export function PickFilter(props: {
  label: string;
  icon: ReactNode;
  options: PickOption[];
  selected: number[];
  onChange(ids: number[]): void;
  testId: string;
}) {
  const { options, selected, onChange } = props;
  return (
    <Menu.Root lazyMount unmountOnExit closeOnSelect={false}>
      <Menu.Trigger asChild>
        <Button
          size="xs"
          variant={selected.length > 0 ? 'subtle' : 'outline'}
          colorPalette={selected.length > 0 ? 'teal' : undefined}
          disabled={options.length === 0}
          data-testid={props.testId}
        >
          {props.icon}
          {props.label}
          {selected.length > 0 ? ` (${selected.length})` : ''}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content maxH="72" overflowY="auto">
            {options.map((o) => (
              <Menu.CheckboxItem
                key={o.id}
                value={String(o.id)}
                checked={selected.includes(o.id)}
                onCheckedChange={() => onChange(togglePick(selected, o.id))}
                data-testid={`${props.testId}-option-${o.id}`}
              >
                {o.color && <Box w="3" h="3" borderRadius="full" flexShrink={0} style={{ background: o.color }} />}
                {o.name}
                <Menu.ItemIndicator />
              </Menu.CheckboxItem>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
