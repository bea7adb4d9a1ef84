import { describe, expect, it } from '@jest/globals';
import { failedReasonOf } from './wa-ack.consumer.js';

describe('failedReasonOf', () => {
  it('puts ERR_SENDING_WAPP_MSG before a reason that names no code of the catalogue', () => {
    expect(failedReasonOf('Connection Closed')).toBe('ERR_SENDING_WAPP_MSG: Connection Closed');
    expect(failedReasonOf('not sent after 5 tries ')).toBe('ERR_SENDING_WAPP_MSG: not sent after 5 tries');
    expect(failedReasonOf('ERR_SOMETHING_ELSE: x')).toBe('ERR_SENDING_WAPP_MSG: ERR_SOMETHING_ELSE: x');
  });

  it("keeps the session's own code (a number not on WhatsApp) and the length the row keeps", () => {
    expect(failedReasonOf('ERR_WAPP_INVALID_CONTACT: 5511999990001 is not on WhatsApp')).toBe(
      'ERR_WAPP_INVALID_CONTACT: 5511999990001 is not on WhatsApp',
    );
    expect(failedReasonOf('x'.repeat(2000))).toHaveLength(1000);
  });
});
