import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { system } from '../../../app/theme';
import { aMessage } from '../../../test/fixtures';
import { i18n } from '../../../app/i18n';
import { ackIcon, failureText, sendFailed } from '../ack';
import { AckIcon } from '../AckIcon';

describe('ack icons (spec 01 §4 "Message acknowledgement icons")', () => {
  it.each([
    [0, 'clock'],
    [1, 'sent'],
    [2, 'sent'],
    [3, 'delivered'],
    [4, 'read'],
    [5, 'read'],
  ])('ack %i → %s', (ack, kind) => {
    expect(ackIcon(ack as number)).toBe(kind);
  });

  it('renders the icon with its ack, its kind and a label', () => {
    const { getByTestId, rerender } = render(
      <ChakraProvider value={system}>
        <AckIcon ack={0} />
      </ChakraProvider>,
    );
    let icon = getByTestId('message-ack');
    expect(icon.getAttribute('data-icon')).toBe('clock');
    expect(icon.getAttribute('aria-label')).toBe('Pendente');
    rerender(
      <ChakraProvider value={system}>
        <AckIcon ack={4} />
      </ChakraProvider>,
    );
    icon = getByTestId('message-ack');
    expect(icon.getAttribute('data-ack')).toBe('4');
    expect(icon.getAttribute('data-icon')).toBe('read');
    expect(icon.getAttribute('aria-label')).toBe('Lida');
  });

  it('a message given up at ack 0 shows the red failure marker with its reason, not the clock', () => {
    const failed = aMessage({ ack: 0, failedReason: 'Error: sandbox: 14155550123 is not on WhatsApp' });
    const { getByTestId, queryByTestId } = render(
      <ChakraProvider value={system}>
        <AckIcon ack={failed.ack} failedReason={failed.failedReason} />
      </ChakraProvider>,
    );
    const marker = getByTestId('message-failed');
    expect(marker.getAttribute('aria-label')).toBe('Não enviada: Error: sandbox: 14155550123 is not on WhatsApp');
    expect(marker.querySelector('title')?.textContent).toBe('Não enviada: Error: sandbox: 14155550123 is not on WhatsApp');
    expect(queryByTestId('message-ack')).toBeNull();
  });

  it("a reason that starts with a spec code shows the code's text, then what followed the colon", () => {
    const failed = aMessage({ ack: 0, failedReason: 'ERR_WAPP_INVALID_CONTACT: sandbox: 14155550123 is not on WhatsApp' });
    const { getByTestId } = render(
      <ChakraProvider value={system}>
        <AckIcon ack={failed.ack} failedReason={failed.failedReason} />
      </ChakraProvider>,
    );
    const label = 'Não enviada: Este não é um número de WhatsApp válido. (sandbox: 14155550123 is not on WhatsApp)';
    expect(getByTestId('message-failed').getAttribute('aria-label')).toBe(label);
    expect(getByTestId('message-failed').querySelector('title')?.textContent).toBe(label);
  });

  it.each([
    [
      'ERR_SENDING_WAPP_MSG: not sent after 5 tries',
      'Erro ao enviar mensagem do WhatsApp. Verifique a página de conexões. (not sent after 5 tries)',
    ],
    ['ERR_SENDING_WAPP_MSG', 'Erro ao enviar mensagem do WhatsApp. Verifique a página de conexões.'],
    ['ERR_SENDING_WAPP_MSG:  ', 'Erro ao enviar mensagem do WhatsApp. Verifique a página de conexões.'],
    ['ERR_WAPP_INVALID_CONTACT: a: b\nc', 'Este não é um número de WhatsApp válido. (a: b\nc)'],
    // no code, or one the catalogue does not know: as it is
    ['Error: sandbox: 14155550123 is not on WhatsApp', 'Error: sandbox: 14155550123 is not on WhatsApp'],
    ['ERR_NOT_A_CODE_WE_KNOW: boom', 'ERR_NOT_A_CODE_WE_KNOW: boom'],
    ['TIMEOUT', 'TIMEOUT'],
    ['connection closed', 'connection closed'],
  ])('failureText(%p) → %p', (reason, text) => {
    expect(failureText(reason, i18n.t.bind(i18n))).toBe(text);
  });

  it('a normal message at ack 0 has no failure marker', () => {
    const pending = aMessage({ ack: 0 });
    const { getByTestId, queryByTestId } = render(
      <ChakraProvider value={system}>
        <AckIcon ack={pending.ack} failedReason={pending.failedReason} />
      </ChakraProvider>,
    );
    expect(queryByTestId('message-failed')).toBeNull();
    expect(getByTestId('message-ack').getAttribute('data-icon')).toBe('clock');
  });

  it.each([
    [0, 'boom', true],
    [0, null, false],
    [0, '', false],
    [0, undefined, false],
    [1, 'boom', false],
  ])('sendFailed(%i, %p) → %p', (ack, reason, failed) => {
    expect(sendFailed(ack as number, reason as string | null | undefined)).toBe(failed);
  });
});
