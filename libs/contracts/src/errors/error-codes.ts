/**
 * The spec's error catalogue (spec 01 §8) and the HTTP status each code answers with.
 * Services throw `DomainError(code)`; the one filter in server-kit turns it into
 * `{ error: code, message, ...details }` with this status.
 */
export const ErrorStatus = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 400,
  ERR_CREATING_TICKET: 400,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Codes of ours, for situations the catalogue does not name.
  ERR_SUBSCRIPTION_EXPIRED: 401,
  ERR_TOO_MANY_ATTEMPTS: 429,
  ERR_VALIDATION: 400,
  ERR_MALFORMED_JSON: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_NOT_FOUND: 404,
  ERR_UNAUTHENTICATED: 401,
  ERR_SERVICE_UNAVAILABLE: 503,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_EMAIL_NOT_FOUND: 404,
  ERR_INVALID_RESET_CODE: 400,
  ERR_PASSWORD_CHANGE_REQUIRED: 403,
  ERR_INVALID_TIMEZONE: 400,
  ERR_NO_NOTE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_SCHEDULE_ALREADY_SENT: 409,
  ERR_NO_TAG_FOUND: 404,
  ERR_EDITING_WAPP_MSG: 400,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_PLAN_NAME_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_PLAN_LIMIT_REACHED: 403,
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_DUPLICATED_LIST_ITEM: 409,
  ERR_NO_CAMPAIGN_FOUND: 404,
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  ERR_CAMPAIGN_NOT_RUNNING: 409,
  ERR_CAMPAIGN_NOT_CANCELLED: 409,
  ERR_INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ErrorStatus;

/** Default English texts; the web app shows translated ones keyed by code. */
export const ErrorMessages: Record<ErrorCode, string> = {
  ERR_NO_OTHER_WHATSAPP: 'At least one default connection is needed.',
  ERR_NO_DEF_WAPP_FOUND: 'No default connection found.',
  ERR_WAPP_NOT_INITIALIZED: 'This connection is not initialised.',
  ERR_WAPP_CHECK_CONTACT: 'The contact could not be checked.',
  ERR_WAPP_INVALID_CONTACT: 'This is not a valid WhatsApp number.',
  ERR_WAPP_DOWNLOAD_MEDIA: 'The media could not be downloaded.',
  ERR_INVALID_CREDENTIALS: 'Wrong email or password.',
  ERR_SENDING_WAPP_MSG: 'The message could not be sent.',
  ERR_DELETE_WAPP_MSG: 'The message could not be deleted.',
  ERR_OTHER_OPEN_TICKET: 'An open ticket already exists for this contact.',
  ERR_SESSION_EXPIRED: 'Session expired. Please sign in again.',
  ERR_USER_CREATION_DISABLED: 'Sign-up is disabled.',
  ERR_NO_PERMISSION: 'You have no permission for this.',
  ERR_DUPLICATED_CONTACT: 'This contact already exists.',
  ERR_NO_SETTING_FOUND: 'Setting not found.',
  ERR_NO_CONTACT_FOUND: 'Contact not found.',
  ERR_NO_TICKET_FOUND: 'Ticket not found.',
  ERR_NO_USER_FOUND: 'User not found.',
  ERR_NO_WAPP_FOUND: 'Connection not found.',
  ERR_CREATING_MESSAGE: 'The message could not be created.',
  ERR_CREATING_TICKET: 'The ticket could not be created.',
  ERR_FETCH_WAPP_MSG: 'The message is too old to fetch.',
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 'This colour is already used by another queue.',
  ERR_WAPP_GREETING_REQUIRED: 'A greeting is required when a connection has more than one queue.',
  ERR_SUBSCRIPTION_EXPIRED: 'The subscription has expired.',
  ERR_TOO_MANY_ATTEMPTS: 'Too many attempts. Try again later.',
  ERR_VALIDATION: 'The request is not valid.',
  ERR_MALFORMED_JSON: 'The request body is not valid JSON.',
  ERR_PAYLOAD_TOO_LARGE: 'The request body is too large.',
  ERR_NOT_FOUND: 'Not found.',
  ERR_UNAUTHENTICATED: 'Authentication required.',
  ERR_SERVICE_UNAVAILABLE: 'The service is unavailable.',
  ERR_EMAIL_ALREADY_EXISTS: 'An user with this email already exists.',
  ERR_EMAIL_NOT_FOUND: 'Email não encontrado',
  ERR_INVALID_RESET_CODE: 'Código inválido ou expirado.',
  ERR_PASSWORD_CHANGE_REQUIRED: 'Set a new password to sign in.',
  ERR_INVALID_TIMEZONE: 'Unknown time zone (use an IANA name such as America/Sao_Paulo).',
  ERR_NO_NOTE_FOUND: 'Note not found.',
  ERR_NO_QUICK_MESSAGE_FOUND: 'Quick reply not found.',
  ERR_NO_SCHEDULE_FOUND: 'Scheduled message not found.',
  ERR_NO_PROMPT_FOUND: 'Prompt not found.',
  ERR_NO_INTEGRATION_FOUND: 'Queue integration not found.',
  ERR_SCHEDULE_ALREADY_SENT: 'The message was already sent: it can no longer be changed.',
  ERR_NO_TAG_FOUND: 'Tag not found.',
  ERR_EDITING_WAPP_MSG: 'The message could not be edited.',
  ERR_NO_MESSAGE_FOUND: 'Message not found.',
  ERR_NO_PLAN_FOUND: 'Plan not found.',
  ERR_PLAN_NAME_EXISTS: 'A plan with this name already exists.',
  ERR_PLAN_IN_USE: 'Companies are on this plan: move them to another plan first.',
  ERR_PLAN_LIMIT_REACHED: 'The plan of this company allows no more of these.',
  ERR_NO_CONTACT_LIST_FOUND: 'Contact list not found.',
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 'Contact not found in this list.',
  ERR_DUPLICATED_LIST_ITEM: 'This number is already in the list.',
  ERR_NO_CAMPAIGN_FOUND: 'Campaign not found.',
  ERR_CAMPAIGN_NOT_EDITABLE: 'This campaign can no longer be changed: it is running, finished, or scheduled less than an hour away.',
  ERR_CAMPAIGN_NOT_RUNNING: 'Only a running campaign can be stopped.',
  ERR_CAMPAIGN_NOT_CANCELLED: 'Only a stopped campaign can be restarted.',
  ERR_INTERNAL: 'An internal error occurred.',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ErrorStatus;
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  statusCode: number;
  requestId?: string;
  /** Field-level problems of a validation error. */
  details?: Array<{ field: string; messages: string[] }>;
  [extra: string]: unknown;
}
