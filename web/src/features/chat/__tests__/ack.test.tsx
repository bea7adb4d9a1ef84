import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { system } from '../../../app/theme';
import { ackIcon } from '../ack';
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
});
