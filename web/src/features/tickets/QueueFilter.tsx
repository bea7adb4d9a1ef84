import { Box, Button, Menu, Portal } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdFilterList } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';

/**
 * The selected queues of the ticket lists. An empty selection means every queue (as the server reads
 * an empty `queueIds`); choosing every queue again goes back to it.
 */
export function toggleQueue(selected: number[], all: number[], id: number): number[] {
  const current = selected.length === 0 ? all : selected;
  const next = current.includes(id) ? current.filter((q) => q !== id) : [...current, id];
  return next.length === all.length && all.every((q) => next.includes(q)) ? [] : next.length === 0 ? current : next;
}

export function QueueFilter({ queues, selected, onChange }: { queues: QueueDto[]; selected: number[]; onChange(ids: number[]): void }) {
  const { t } = useTranslation();
  const all = queues.map((q) => q.id);
  const label = selected.length === 0 ? t('tickets.allQueues') : `${t('tickets.queues')} (${selected.length})`;
  const button = (onClick?: () => void) => (
    <Button size="xs" variant="outline" disabled={queues.length === 0} onClick={onClick} data-testid="queue-filter">
      <MdFilterList />
      {label}
    </Button>
  );
  return (
    <Deferred placeholder={button}>
      <Menu.Root defaultOpen lazyMount unmountOnExit closeOnSelect={false}>
        <Menu.Trigger asChild>{button()}</Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {queues.map((q) => (
                <Menu.CheckboxItem
                  key={q.id}
                  value={String(q.id)}
                  checked={selected.length === 0 || selected.includes(q.id)}
                  onCheckedChange={() => onChange(toggleQueue(selected, all, q.id))}
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
    </Deferred>
  );
}
