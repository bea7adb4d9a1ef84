import { Button } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdFilterList } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';

const QueueFilterMenu = lazy(() => import('./QueueFilterMenu'));

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
  const label = selected.length === 0 ? t('tickets.allQueues') : `${t('tickets.queues')} (${selected.length})`;
  const button = (onClick?: () => void) => (
    <Button size="xs" variant="outline" disabled={queues.length === 0} onClick={onClick} data-testid="queue-filter">
      <MdFilterList />
      {label}
    </Button>
  );
  return (
    <Deferred placeholder={button}>
      <QueueFilterMenu trigger={button()} queues={queues} selected={selected} onChange={onChange} />
    </Deferred>
  );
}
