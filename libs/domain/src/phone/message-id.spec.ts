import { whatsappMessageId } from './message-id.js';

describe('whatsappMessageId', () => {
  it('makes ids as WhatsApp Web does, none twice across many refills of its pool', () => {
    const ids = Array.from({ length: 5000 }, () => whatsappMessageId());
    for (const id of ids) expect(id).toMatch(/^3EB0[0-9A-F]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // every hex digit shows up in every position: the digits are random, not a counter
    for (let pos = 4; pos < 20; pos++) expect(new Set(ids.map((id) => id[pos])).size).toBe(16);
  });
});
