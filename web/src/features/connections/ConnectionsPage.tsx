import { Box, Button, Center, HStack, Icon, IconButton, Spinner, Table, Text } from '@chakra-ui/react';
import type { ConnectionStatus, WhatsappDto } from '@wa/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPageHeader } from '../../app/list-page';
import { MdCheckCircle, MdCropFree, MdDelete, MdEdit, MdSignalWifiOff, MdSignalWifi4Bar, MdTimer } from 'react-icons/md';
import { Navigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ConnectionDialog } from './ConnectionDialog';
import { dateTimeLabel, sessionButtons } from './connection-rules';
import { useDeleteWhatsappMutation, useListWhatsappsQuery, useSessionActionMutation } from './connections.api';
import { QrDialog } from './QrDialog';
import { SESSION_END_TEXT, useSessionEnds } from './session-end';

const STATUS_ICON: Record<ConnectionStatus, { icon: typeof MdCheckCircle; color: string }> = {
  CONNECTED: { icon: MdSignalWifi4Bar, color: 'green.fg' },
  DISCONNECTED: { icon: MdSignalWifiOff, color: 'red.fg' },
  OPENING: { icon: MdTimer, color: 'orange.fg' },
  qrcode: { icon: MdCropFree, color: 'blue.fg' },
  PAIRING: { icon: MdTimer, color: 'orange.fg' },
  TIMEOUT: { icon: MdSignalWifiOff, color: 'red.fg' },
};

type Confirm = { kind: 'delete' | 'disconnect'; whatsapp: WhatsappDto } | null;

/** /connections: the company's connections, live through the whatsapp and whatsappSession events. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const { data: list = [], isLoading, isError, error } = useListWhatsappsQuery(undefined, { skip: !isAdmin });
  const [sessionAction, sessionState] = useSessionActionMutation();
  const [remove, removing] = useDeleteWhatsappMutation();
  const [editing, setEditing] = useState<WhatsappDto | null | undefined>(undefined);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const closeQr = useCallback(() => setQrFor(null), []);
  const sessionEnds = useSessionEnds();

  async function act(w: WhatsappDto, action: 'start' | 'newQr' | 'disconnect') {
    try {
      await sessionAction({ id: w.id, action }).unwrap();
    } catch (err) {
      notify.error(err);
    }
  }

  async function confirmed() {
    if (!confirm) return;
    const { kind, whatsapp } = confirm;
    if (kind === 'disconnect') await act(whatsapp, 'disconnect');
    else {
      try {
        await remove(whatsapp.id).unwrap();
        notify.success(t('connections.toasts.deleted'));
      } catch (err) {
        notify.error(err);
      }
    }
    setConfirm(null);
  }

  const busy = (w: WhatsappDto) => sessionState.isLoading && sessionState.originalArgs?.id === w.id;

  // the connections are an admin screen (spec 01 §2 "admin group")
  if (!isAdmin) return <Navigate to="/tickets" replace />;

  return (
    <Box p={{ base: '3', md: '6' }} data-testid="connections-page">
      <ListPageHeader
        title={t('connections.title')}
        addLabel={t('connections.add')}
        onAdd={isAdmin ? () => setEditing(null) : undefined}
        testId="connections"
        addTestId="connection-add"
      />
      <Box bg="bg" borderRadius="md" borderWidth="1px" overflowX="auto">
        <Table.Root size="sm" data-testid="connections-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('connections.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('connections.columns.status')}</Table.ColumnHeader>
              {isAdmin && <Table.ColumnHeader textAlign="center">{t('connections.columns.session')}</Table.ColumnHeader>}
              <Table.ColumnHeader textAlign="center">{t('connections.columns.lastUpdate')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('connections.columns.default')}</Table.ColumnHeader>
              {isAdmin && <Table.ColumnHeader textAlign="center">{t('connections.columns.actions')}</Table.ColumnHeader>}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {list.map((w) => {
              const status = STATUS_ICON[w.status] ?? STATUS_ICON.DISCONNECTED;
              // why WhatsApp ended the session, until it is back: heard live, or as the connection keeps it (after a reload)
              const ended =
                w.status === 'CONNECTED'
                  ? undefined
                  : (sessionEnds.get(w.id) ?? (w.endReason ? { reason: w.endReason, at: w.updatedAt } : undefined));
              return (
                <Table.Row key={w.id} data-testid="connection-row" data-connection-id={w.id} data-status={w.status}>
                  <Table.Cell fontWeight="medium">
                    {w.name}
                    {ended && (
                      <Text
                        textStyle="xs"
                        fontWeight="normal"
                        color={ended.reason === 'banned' ? 'fg.error' : 'fg.warning'}
                        maxW="xs"
                        whiteSpace="normal"
                        data-testid="connection-session-end"
                        data-reason={ended.reason}
                      >
                        {t(SESSION_END_TEXT[ended.reason])}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <HStack justify="center" gap="1.5" title={t(`connections.status.${w.status}`)}>
                      <Icon as={status.icon} color={status.color} boxSize="5" />
                      <Text textStyle="xs" color="fg.muted" hideBelow="md">
                        {t(`connections.status.${w.status}`)}
                      </Text>
                    </HStack>
                  </Table.Cell>
                  {isAdmin && (
                    <Table.Cell textAlign="center">
                      <HStack justify="center" gap="2">
                        {sessionButtons(w.status).map((b) => {
                          const common = { size: 'xs' as const, 'data-testid': `session-${b}` };
                          switch (b) {
                            case 'qrcode':
                              return (
                                <Button key={b} {...common} colorPalette="blue" onClick={() => setQrFor(w.id)}>
                                  {t('connections.buttons.qrcode')}
                                </Button>
                              );
                            case 'tryAgain':
                              return (
                                <Button key={b} {...common} colorPalette="teal" loading={busy(w)} onClick={() => void act(w, 'start')}>
                                  {t('connections.buttons.tryAgain')}
                                </Button>
                              );
                            case 'newQr':
                              return (
                                <Button key={b} {...common} variant="outline" disabled={busy(w)} onClick={() => void act(w, 'newQr')}>
                                  {t('connections.buttons.newQr')}
                                </Button>
                              );
                            case 'disconnect':
                              return (
                                <Button
                                  key={b}
                                  {...common}
                                  variant="outline"
                                  colorPalette="red"
                                  onClick={() => setConfirm({ kind: 'disconnect', whatsapp: w })}
                                >
                                  {t('connections.buttons.disconnect')}
                                </Button>
                              );
                            case 'connecting':
                              return (
                                <Button key={b} {...common} disabled variant="outline">
                                  <Spinner size="xs" />
                                  {t('connections.buttons.connecting')}
                                </Button>
                              );
                          }
                        })}
                      </HStack>
                    </Table.Cell>
                  )}
                  <Table.Cell textAlign="center" textStyle="xs">
                    {dateTimeLabel(w.updatedAt)}
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    {w.isDefault && <Icon as={MdCheckCircle} color="green.fg" boxSize="5" data-testid="connection-default-flag" />}
                  </Table.Cell>
                  {isAdmin && (
                    <Table.Cell textAlign="center">
                      <HStack justify="center" gap="1">
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={t('common.edit')}
                          onClick={() => setEditing(w)}
                          data-testid="connection-edit"
                        >
                          <MdEdit />
                        </IconButton>
                        <IconButton
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          aria-label={t('common.delete')}
                          onClick={() => setConfirm({ kind: 'delete', whatsapp: w })}
                          data-testid="connection-delete"
                        >
                          <MdDelete />
                        </IconButton>
                      </HStack>
                    </Table.Cell>
                  )}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        {isLoading && (
          <Center py="8">
            <Spinner />
          </Center>
        )}
        {isError && (
          <Center py="8" color="fg.error">
            {errorText(error)}
          </Center>
        )}
        {!isLoading && !isError && list.length === 0 && (
          <Center py="8" color="fg.muted">
            {t('common.noRecords')}
          </Center>
        )}
      </Box>
      {editing !== undefined && <ConnectionDialog whatsapp={editing} onClose={() => setEditing(undefined)} />}
      <QrDialog whatsapp={qrFor === null ? undefined : list.find((w) => w.id === qrFor)} onClose={closeQr} />
      <ConfirmDialog
        open={!!confirm}
        title={confirm?.kind === 'delete' ? t('connections.confirm.deleteTitle') : t('connections.confirm.disconnectTitle')}
        message={confirm?.kind === 'delete' ? t('connections.confirm.deleteMessage') : t('connections.confirm.disconnectMessage')}
        busy={removing.isLoading || sessionState.isLoading}
        onConfirm={() => void confirmed()}
        onClose={() => setConfirm(null)}
      />
    </Box>
  );
}
