import { describe, expect, it } from '@jest/globals';
import { transferNotice } from './transfer-notice.js';

const base = { fromQueueId: 1, toQueueId: 1, fromUserId: 7, toUserId: 7, queueName: 'Vendas', userName: 'Bruno' };

describe('transferNotice (sendMsgTransfTicket)', () => {
  it('tells the customer of another department, another agent, or both', () => {
    expect(transferNotice({ ...base, toQueueId: 2 })).toBe(
      '*Mensagem automática*:\nVocê foi transferido para o departamento *Vendas*\naguarde, já vamos te atender!',
    );
    expect(transferNotice({ ...base, toUserId: 8 })).toBe(
      '*Mensagem automática*:\nFoi transferido para o atendente *Bruno*\naguarde, já vamos te atender!',
    );
    expect(transferNotice({ ...base, toQueueId: 2, toUserId: 8 })).toBe(
      '*Mensagem automática*:\nVocê foi transferido para o departamento *Vendas* e contará com a presença de *Bruno*\naguarde, já vamos te atender!',
    );
    // to a queue, back to waiting for whoever takes it
    expect(transferNotice({ ...base, toQueueId: 2, toUserId: null })).toContain('departamento *Vendas*');
  });

  it('says nothing when nothing changed hands: same queue and agent, an agent taking a ticket nobody had, a queue removed', () => {
    expect(transferNotice(base)).toBeNull();
    expect(transferNotice({ ...base, fromUserId: null, toUserId: 9 })).toBeNull();
    expect(transferNotice({ ...base, toQueueId: null })).toBeNull();
  });
});
