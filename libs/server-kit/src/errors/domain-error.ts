import { ErrorMessages, ErrorStatus, type ErrorCode } from '@wa/contracts';

/** The one error type services throw; the filter maps its code to status and body. */
export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
    message?: string,
    status?: number,
  ) {
    super(message ?? ErrorMessages[code]);
    this.name = 'DomainError';
    this.status = status ?? ErrorStatus[code];
  }
}

/** ERR_VALIDATION for one field of the body, its message saying what is wanted (`details` names the field). */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, `${field}: ${message}`);
}
