import { store } from '../../app/store';
import type { SignupRequest } from '@wa/contracts';
import { authApi, type SignupResponse } from '../../app/auth.api';

/**
 * The public account calls (sign-up, password reset) through the API slice. Loaded by their pages on the
 * first interaction, as the login page loads sign-in.ts, so that the pages do not carry the store.
 * Each rejects with the call's error.
 */
async function run<T>(request: { unwrap(): Promise<T>; reset(): void }): Promise<T> {
  try {
    return await request.unwrap();
  } finally {
    request.reset();
  }
}

/** `POST /auth/signup`. */
export function signUp(body: SignupRequest): Promise<SignupResponse> {
  return run(store.dispatch(authApi.endpoints.signup.initiate(body)));
}

/** `POST /forgetpassword/{email}`: a reset code by email. */
export function askResetCode(email: string): Promise<{ message: string }> {
  return run(store.dispatch(authApi.endpoints.forgetPassword.initiate(email)));
}

/** `POST /resetpasswords/{email}/{code}/{newPassword}`. */
export function resetPassword(email: string, code: string, password: string): Promise<{ message: string }> {
  return run(store.dispatch(authApi.endpoints.resetPassword.initiate({ email, code, password })));
}
