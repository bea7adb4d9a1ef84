import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../test/render';
import { ConfirmDialog } from '../ConfirmDialog';

/** A delete button that asks first, as the lists do. */
function DeleteButton({ onConfirm }: { onConfirm(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" data-testid="delete" onClick={() => setOpen(true)}>
        Excluir
      </button>
      <button type="button">Outro</button>
      <ConfirmDialog
        open={open}
        title="Excluir contato"
        message="Tem certeza?"
        onConfirm={() => {
          onConfirm();
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

describe('the confirmation dialog', () => {
  it('takes the focus while open and gives it back to the button that opened it, cancelled or confirmed', async () => {
    const confirmed = jest.fn();
    const r = renderWithProviders(<DeleteButton onConfirm={confirmed} />);
    const opener = r.getByTestId('delete');
    for (const close of ['Cancelar', 'Confirmar']) {
      opener.focus();
      fireEvent.click(opener);
      const dialog = await r.findByTestId('confirm-dialog');
      expect(dialog.getAttribute('role')).toBe('alertdialog');
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
      fireEvent.click(r.getByText(close));
      await waitFor(() => expect(r.queryByTestId('confirm-dialog')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(opener));
    }
    expect(confirmed).toHaveBeenCalledTimes(1);
  });
});
