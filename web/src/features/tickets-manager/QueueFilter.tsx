import { Button } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdFilterList } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';

const QueueFilterMenu = lazy(() => import('./QueueFilterMenu'));

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
