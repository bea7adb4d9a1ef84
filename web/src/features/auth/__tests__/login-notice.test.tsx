import { afterEach, describe, expect, it } from '@jest/globals';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../../test/render';
import LoginPage from '../LoginPage';
import { clearSessionEndNotice, leaveSessionEndNotice } from '../session-end-notice';

const renderLogin = () =>
  renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
    </Routes>,
    { route: '/login' },
  );

afterEach(clearSessionEndNotice);

describe('the login page’s notice of an ended session (spec 01 §4)', () => {
  it('says why the session ended on every showing of the page until a sign-in, not only the first', () => {
    // the ended session's page can show the login page before its reload: the page after the reload still says it
    leaveSessionEndNotice('auth.sessionReplaced');
    const before = renderLogin();
    expect(before.getByTestId('session-ended-notice')).toBeTruthy();
    before.unmount();
    const after = renderLogin();
    expect(after.getByTestId('session-ended-notice')).toBeTruthy();
  });

  it('says nothing when no session ended', () => {
    const r = renderLogin();
    expect(r.queryByTestId('session-ended-notice')).toBeNull();
  });
});
