import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { notify } from '../../../app/notify';
import { renderWithProviders } from '../../../test/render';
import ForgetPasswordPage from '../ForgetPasswordPage';
import SignupPage from '../SignupPage';

interface Call {
  method: string;
  path: string;
  credentials: string | undefined;
  authorization: string | null;
  body: unknown;
}

const realFetch = globalThis.fetch;
let calls: Call[] = [];
let answer: (c: Call) => { status: number; body: unknown };

beforeEach(() => {
  calls = [];
  jest.spyOn(notify, 'success').mockImplementation(() => undefined);
  jest.spyOn(notify, 'errorText').mockImplementation(() => undefined);
  jest.spyOn(notify, 'error').mockImplementation(() => undefined);
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(String(input), init);
    const text = req.method === 'GET' ? '' : await req.text();
    const call: Call = {
      method: req.method,
      path: new URL(req.url).pathname,
      credentials: input instanceof Request ? req.credentials : init?.credentials,
      authorization: req.headers.get('authorization'),
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const { status, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

function renderAt(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
      <Route path="/login" element={<div data-testid="login-page" />} />
    </Routes>,
    { route },
  );
}

const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const plan = { id: 4, name: 'Básico', users: 5, connections: 2, queues: 3, value: 49.9, isPublic: true, trialDays: 14 };

describe('/signup (spec 01 §2, §8)', () => {
  it('lists the public plans without cookies, checks the form, signs up and goes to /login', async () => {
    answer = (c) =>
      c.path === '/plans/list' ? { status: 200, body: [plan] } : { status: 201, body: { companyId: 9, userId: 90, dueDate: '2026-12-08' } };
    const r = renderAt('/signup');
    await waitFor(() => expect(r.getByTestId('signup-plan').querySelectorAll('option')).toHaveLength(2));
    expect(r.getByTestId('signup-plan').querySelectorAll('option')[1].textContent).toBe(
      'Básico — R$ 49,90 · 5 usuários / 2 conexões · 14 dias de teste',
    );
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/plans/list', credentials: 'omit', authorization: null });

    fireEvent.click(r.getByTestId('signup-submit'));
    expect(r.getAllByText('Required').length).toBeGreaterThanOrEqual(3);
    expect(calls).toHaveLength(1);

    type(r.getByTestId('signup-name'), 'Loja da Ana');
    type(r.getByTestId('signup-email'), 'ana@loja.com');
    type(r.getByTestId('signup-phone'), '5511988887777');
    type(r.getByTestId('signup-password'), 'segredo');
    fireEvent.change(r.getByTestId('signup-plan'), { target: { value: '4' } });
    fireEvent.click(r.getByTestId('signup-submit'));
    await waitFor(() => expect(r.getByTestId('login-page')).toBeTruthy());
    expect(calls[1]).toMatchObject({
      method: 'POST',
      path: '/auth/signup',
      credentials: 'include',
      body: { name: 'Loja da Ana', email: 'ana@loja.com', phone: '5511988887777', password: 'segredo', planId: 4 },
    });
    expect(notify.success).toHaveBeenCalledWith('Usuário criado com sucesso! Faça seu login');
  });

  it('on a refusal: the failure toast, the server’s field errors, and sign-up disabled on the form', async () => {
    let refusal: { status: number; body: unknown } = {
      status: 400,
      body: { error: 'ERR_VALIDATION', details: [{ field: 'planId', messages: ['plan not found'] }] },
    };
    answer = (c) => (c.path === '/plans/list' ? { status: 200, body: [plan] } : refusal);
    const r = renderAt('/signup');
    await waitFor(() => expect(r.getByTestId('signup-plan').querySelectorAll('option')).toHaveLength(2));
    type(r.getByTestId('signup-name'), 'Loja da Ana');
    type(r.getByTestId('signup-email'), 'ana@loja.com');
    type(r.getByTestId('signup-password'), 'segredo');
    fireEvent.change(r.getByTestId('signup-plan'), { target: { value: '4' } });
    fireEvent.click(r.getByTestId('signup-submit'));
    await waitFor(() => expect(r.getByText('plan not found')).toBeTruthy());
    expect(notify.errorText).toHaveBeenCalledWith('Erro ao criar usuário. Verifique os dados informados.');
    expect((calls[1].body as { phone?: string }).phone).toBeUndefined();

    refusal = { status: 403, body: { error: 'ERR_USER_CREATION_DISABLED', message: 'Sign-up is disabled.' } };
    fireEvent.click(r.getByTestId('signup-submit'));
    await waitFor(() =>
      expect(r.getByTestId('signup-error').textContent).toBe('A criação de usuários foi desabilitada pelo administrador.'),
    );
    expect(r.queryByText('plan not found')).toBeNull();
  });
});

describe('/forgetpsw (spec 02 §2, §5, §7)', () => {
  it('step one: an unknown email is told on the form; a known one gets the code and goes to step two', async () => {
    answer = (c) =>
      c.path === '/forgetpassword/nobody%40loja.com' || c.path === '/forgetpassword/nobody@loja.com'
        ? { status: 404, body: { error: 'ERR_EMAIL_NOT_FOUND', message: 'Email não encontrado' } }
        : { status: 200, body: { message: 'Email enviado com sucesso!' } };
    const r = renderAt('/forgetpsw');
    fireEvent.click(r.getByTestId('forgetpsw-send'));
    expect(r.getByText('Required')).toBeTruthy();
    type(r.getByTestId('forgetpsw-email'), 'ana@');
    expect(r.getByText('Invalid email')).toBeTruthy();
    expect(calls).toHaveLength(0);

    type(r.getByTestId('forgetpsw-email'), 'nobody@loja.com');
    fireEvent.click(r.getByTestId('forgetpsw-send'));
    await waitFor(() => expect(r.getByText('Email não encontrado')).toBeTruthy());
    expect(r.queryByTestId('forgetpsw-code')).toBeNull();

    type(r.getByTestId('forgetpsw-email'), 'ana@loja.com');
    fireEvent.click(r.getByTestId('forgetpsw-send'));
    await waitFor(() => expect(r.getByTestId('forgetpsw-code')).toBeTruthy());
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/forgetpassword/ana%40loja.com' });
    expect(notify.success).toHaveBeenCalledWith('Email enviado com sucesso!');
    expect((r.getByTestId('forgetpsw-email') as HTMLInputElement).value).toBe('ana@loja.com');

    fireEvent.click(r.getByTestId('forgetpsw-resend'));
    expect(r.getByTestId('forgetpsw-send')).toBeTruthy();
    expect((r.getByTestId('forgetpsw-email') as HTMLInputElement).value).toBe('ana@loja.com');
  });

  it('step two: checks the code and the passwords, resets, and goes to /login', async () => {
    let resetAnswer: { status: number; body: unknown } = {
      status: 400,
      body: { error: 'ERR_INVALID_RESET_CODE', message: 'Código inválido ou expirado.' },
    };
    answer = (c) => (c.path.startsWith('/forgetpassword/') ? { status: 200, body: { message: 'ok' } } : resetAnswer);
    const r = renderAt('/forgetpsw');
    type(r.getByTestId('forgetpsw-email'), 'ana@loja.com');
    fireEvent.click(r.getByTestId('forgetpsw-send'));
    await waitFor(() => expect(r.getByTestId('forgetpsw-code')).toBeTruthy());

    fireEvent.click(r.getByTestId('forgetpsw-reset'));
    expect(r.getAllByText('Campo obrigatório')).toHaveLength(3);
    type(r.getByTestId('forgetpsw-code'), '12 34 56 78');
    expect((r.getByTestId('forgetpsw-code') as HTMLInputElement).value).toBe('12345678');
    type(r.getByTestId('forgetpsw-password'), 'fraca');
    type(r.getByTestId('forgetpsw-confirm'), 'outra');
    expect(r.getByText('Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.')).toBeTruthy();
    expect(r.getByText('As senhas não correspondem')).toBeTruthy();
    type(r.getByTestId('forgetpsw-password'), 'Nova/Senha1');
    type(r.getByTestId('forgetpsw-confirm'), 'Nova/Senha1');
    const before = calls.length;
    fireEvent.click(r.getByTestId('forgetpsw-reset'));
    await waitFor(() => expect(r.getByText('Código inválido ou expirado.')).toBeTruthy());
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/resetpasswords/ana%40loja.com/12345678/Nova%2FSenha1' });

    resetAnswer = { status: 200, body: { message: 'Senha redefinida com sucesso.' } };
    fireEvent.click(r.getByTestId('forgetpsw-reset'));
    await waitFor(() => expect(r.getByTestId('login-page')).toBeTruthy());
    expect(notify.success).toHaveBeenLastCalledWith('Senha redefinida com sucesso.');
  });
});
