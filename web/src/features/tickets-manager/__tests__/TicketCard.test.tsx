import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent } from '@testing-library/react';
import { WAITING_MESSAGE_PREVIEW } from '@wa/contracts';
import { aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { TicketCard } from '../TicketCard';

const NOW = new Date('2026-11-22T12:00:00.000Z');

function card(overrides: Parameters<typeof aTicket>[0]) {
  const onOpen = jest.fn();
  const onAccept = jest.fn();
  const r = renderWithProviders(
    <TicketCard ticket={aTicket(overrides)} now={NOW} selected={false} accepting={false} onOpen={onOpen} onAccept={onAccept} />,
  );
  return { ...r, onOpen, onAccept };
}

describe('ticket card', () => {
  it('shows the contact, the last message cut to 20 characters, the queue, the unread count and the age', () => {
    const { getByTestId } = card({
      lastMessage: 'Olá, preciso de ajuda com meu pedido',
      unreadMessages: 3,
      updatedAt: new Date(NOW.getTime() - 5 * 60_000).toISOString(),
    });
    expect(getByTestId('ticket-contact').textContent).toBe('Contato 1');
    expect(getByTestId('ticket-last-message').textContent).toBe('Olá, preciso de ajud...');
    expect(getByTestId('ticket-queue').textContent).toBe('Atendimento');
    expect(getByTestId('ticket-unread').textContent).toBe('3');
    expect(getByTestId('ticket-unread').getAttribute('aria-label')).toBe('3 não lidas');
    expect(getByTestId('ticket-age').textContent).toBe('5 min');
    expect(getByTestId('ticket-age').getAttribute('data-color')).toBe('green');
  });

  it('a pending ticket does not open on a click; it is accepted with its button', () => {
    const { getByTestId, onOpen, onAccept } = card({ status: 'pending' });
    fireEvent.click(getByTestId('ticket-card'));
    expect(onOpen).not.toHaveBeenCalled();
    fireEvent.click(getByTestId('ticket-accept'));
    expect(onAccept).toHaveBeenCalledTimes(1);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('an open ticket opens on a click and shows its owner', () => {
    const { getByTestId, queryByTestId, onOpen } = card({ status: 'open', userId: 7, user: { id: 7, name: 'Ana' } });
    expect(queryByTestId('ticket-accept')).toBeNull();
    expect(getByTestId('ticket-owner').textContent).toBe('Ana');
    fireEvent.click(getByTestId('ticket-card'));
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it("shows a last message waiting for the phone's resend as the chat does: the clock and the waiting text, uncut", () => {
    const { getByTestId } = card({ lastMessage: WAITING_MESSAGE_PREVIEW });
    const waiting = getByTestId('message-waiting');
    expect(getByTestId('ticket-last-message').contains(waiting)).toBe(true);
    expect(waiting.textContent).toBe('Aguardando mensagem. Essa ação pode levar alguns instantes.');
    expect(waiting.querySelector('svg')).not.toBeNull();
  });

  it("shows a nameless contact's number formatted for reading, and a group's id as it is", () => {
    const person = card({ contact: { id: 5, name: '', number: '5511987654321', profilePicUrl: '' } as never });
    expect(person.getByTestId('ticket-contact').textContent).toBe('+55 11 98765-4321');
    person.unmount();
    const group = card({ contact: { id: 6, name: '', number: '120363025246125486', profilePicUrl: '' } as never });
    expect(group.getByTestId('ticket-contact').textContent).toBe('120363025246125486');
  });

  it('a ticket without queue says so', () => {
    const { getByTestId } = card({ queueId: null, queue: null });
    expect(getByTestId('ticket-queue').textContent).toBe('Sem fila');
  });
});
