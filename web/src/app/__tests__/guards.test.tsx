import { afterEach, describe, expect, it } from '@jest/globals';
import { act, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PublicOnly } from '../guards';
import { clearSession, storeSession } from '../storage';

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route
          path="/login"
          element={
            <PublicOnly>
              <div data-testid="login" />
            </PublicOnly>
          }
        />
        <Route path="/" element={<div data-testid="home" />} />
        <Route path="/tickets" element={<div data-testid="tickets" />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => clearSession());

describe('public pages (spec 01 §2)', () => {
  it('a signed-in user opening one goes to /', () => {
    storeSession('t');
    expect(renderLogin().getByTestId('home')).toBeTruthy();
  });

  it('a sign-in made on the login page opens the ticket manager', () => {
    const r = renderLogin();
    expect(r.getByTestId('login')).toBeTruthy();
    act(() => storeSession('t'));
    expect(r.getByTestId('tickets')).toBeTruthy();
  });
});
