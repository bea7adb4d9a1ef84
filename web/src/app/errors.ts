import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { TFunction } from 'i18next';
import { i18n } from './i18n';
import { brDate } from './br-date';

type AnyError = FetchBaseQueryError | SerializedError | undefined | null | unknown;

function bodyOf(err: AnyError): unknown {
  if (err && typeof err === 'object' && 'data' in err) return (err as { data: unknown }).data;
  return undefined;
}

/** The error code of a failed call (`ERR_*`), when the server gave one. */
export function errorCode(err: AnyError): string | undefined {
  const body = bodyOf(err);
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') return (body as { error: string }).error;
  return undefined;
}

/**
 * spec 01 §8: a known code shows its translated text, otherwise the raw text; a plain string is
 * shown as is; otherwise "An error occurred!".
 */
export function errorText(err: AnyError, t: TFunction = i18n.t.bind(i18n)): string {
  const body = bodyOf(err);
  if (typeof body === 'string' && body.trim()) return body;
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && i18n.exists(`backendErrors.${error}`)) {
      const extra = body as Record<string, unknown>;
      return t(`backendErrors.${error}`, { ...extra, date: formatDueDate(extra.dueDate) });
    }
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  if (typeof err === 'string' && err) return err;
  if (err && typeof err === 'object' && 'status' in err && (err as { status: unknown }).status === 'FETCH_ERROR')
    return t('errors.network');
  return t('errors.generic');
}

function formatDueDate(value: unknown): string {
  return typeof value === 'string' ? brDate(value) : '';
}
