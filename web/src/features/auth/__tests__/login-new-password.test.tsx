import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../../test/render';
import LoginPage from '../LoginPage';

const realFetch = globalThis.fetch;
beforeEach(() => {
  // the server asks for a password of the user's own (the first super user's temporary one)
  globalThis.fetch = jest.fn(
    async () =>
      new Response(JSON.stringify({ error: 'ERR_PASSWORD_CHANGE_REQUIRED', message: 'Defina uma nova senha' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      }),
  ) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('the login page’s own password at first sign-in (spec 02 §5 rule)', () => {
  it('takes only a password the server will: 8+ characters with upper and lower case and a digit', async () => {
    const r = renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginPage />} />
      </Routes>,
      { route: '/login' },
    );
    fireEvent.change(r.getByTestId('login-email'), { target: { value: 'root@platform.test' } });
    fireEvent.change(r.getByTestId('login-password'), { target: { value: 'temporary-one' } });
    fireEvent.click(r.getByTestId('login-submit'));
    // the sign-in's code (the store, the API slice) is fetched on the first submit: a loaded machine takes its time
    await waitFor(() => expect(r.getByTestId('login-must-change')).toBeTruthy(), { timeout: 12_000 });
    const submit = () => r.getByTestId('login-submit') as HTMLButtonElement;
    for (const weak of ['abcde', 'abcdefgh', 'ABCDEFG1', 'Abcdefgh', 'Abc1']) {
      fireEvent.change(r.getByTestId('login-new-password'), { target: { value: weak } });
      expect(submit().disabled).toBe(true);
      expect(r.getByTestId('login-new-password-rule').textContent).toContain('no mínimo 8 caracteres');
    }
    fireEvent.change(r.getByTestId('login-new-password'), { target: { value: 'Abcdefg1' } });
    expect(submit().disabled).toBe(false);
    expect(r.queryByTestId('login-new-password-rule')).toBeNull();
  });
});
