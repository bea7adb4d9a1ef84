import { describe, expect, it } from '@jest/globals';
import { aMessage } from '../../../test/fixtures';
import {
  addMessage,
  dayLabel,
  isSendable,
  orderedMessages,
  outgoingBody,
  replaceMessage,
  type MessagePages,
  quickReplyLabel,
  quickReplyMatches,
} from '../message-rules';

function pages(...lists: number[][]): MessagePages {
  return {
    pages: lists.map((ids) => ({ messages: ids.map((id) => aMessage({ id })), hasMore: false, nextCursor: null })),
    pageParams: lists.map((_, i) => ({ cursor: null, page: i + 1 })),
  };
}

describe('message list', () => {
  it('orders the pages oldest first (page 0 is the newest)', () => {
    expect(orderedMessages(pages([5, 6], [3, 4], [1, 2])).map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('appends a created message once, even when the socket and the send answer both bring it', () => {
    const once = addMessage(pages([5, 6], [3, 4]), aMessage({ id: 7 }));
    const twice = addMessage(once, aMessage({ id: 7 }));
    expect(orderedMessages(twice).map((m) => m.id)).toEqual([3, 4, 5, 6, 7]);
  });

  it('raises the ack of an updated message and never lowers it', () => {
    const data = pages([1, 2]);
    const read = replaceMessage(data, aMessage({ id: 2, ack: 4 }));
    expect(orderedMessages(read)[1].ack).toBe(4);
    const late = replaceMessage(read, aMessage({ id: 2, ack: 3 }));
    expect(orderedMessages(late)[1].ack).toBe(4);
  });

  it('labels days as DD/MM/YYYY', () => {
    expect(dayLabel(new Date(2026, 0, 5, 13, 0).toISOString())).toBe('05/01/2026');
  });
});

describe('sending (spec 01 §5)', () => {
  it('does not send whitespace-only text', () => {
    expect(isSendable('')).toBe(false);
    expect(isSendable('  \n\t ')).toBe(false);
    expect(isSendable(' oi ')).toBe(true);
  });

  it('prefixes the agent name in bold when the sign option is on', () => {
    expect(outgoingBody(' Olá! ', true, 'Ana')).toBe('*Ana:*\nOlá!');
    expect(outgoingBody(' Olá! ', false, 'Ana')).toBe('Olá!');
  });
});

describe('quick replies in the input (spec 01 §2, §9)', () => {
  const replies = [
    { id: 1, shortcode: 'bomdia', message: 'Bom dia {{firstName}}, como posso ajudar?' },
    { id: 2, shortcode: 'pix', message: 'Nossa chave pix é o CNPJ 12.345.678/0001-90, em nome da Loja Exemplo' },
  ];

  it('are offered after "/" and at least one more character, by shortcode or text', () => {
    expect(quickReplyMatches('/', replies)).toEqual([]);
    expect(quickReplyMatches('bom', replies)).toEqual([]);
    expect(quickReplyMatches('/bo', replies).map((r) => r.id)).toEqual([1]);
    expect(quickReplyMatches('/CNPJ', replies).map((r) => r.id)).toEqual([2]);
  });

  it('show "shortcode - message" cut at 35 characters', () => {
    expect(quickReplyLabel(replies[1])).toBe('pix - Nossa chave pix é o CNPJ 12.3...');
    expect(quickReplyLabel({ shortcode: 'oi', message: 'Olá!' })).toBe('oi - Olá!');
  });
});
