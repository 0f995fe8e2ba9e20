/**
 * The error catalogue (spec part 1 §8) plus the few codes Atende adds for rules the
 * spec states without naming a code. Each code has exactly one HTTP status.
 */
export const ERROR_STATUS = {
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
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
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Codes added by Atende (documented in docs/architecture.md).
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_PAYLOAD_TOO_LARGE: 413,
  /** The database (or another service the request needs) is unreachable for now; sent with Retry-After. */
  ERR_SERVICE_UNAVAILABLE: 503,
  /** No space left where the server writes (DATA_DIR: files, the embedded database) or in the database server; nothing was stored. */
  ERR_STORAGE_FULL: 507,
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_COMPANY_SUSPENDED: 403,
  ERR_USER_LIMIT_REACHED: 403,
  ERR_CONNECTION_LIMIT_REACHED: 403,
  ERR_QUEUE_LIMIT_REACHED: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_PLAN_NAME_ALREADY_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_CANNOT_DEMOTE_SELF: 400,
  ERR_LAST_ADMIN: 409,
  ERR_CANNOT_DELETE_MAIN_COMPANY: 400,
  ERR_TICKET_NOT_OPEN: 400,
  // Ticket races (ARCHITECTURE.md §3 rule 16): the loser of a transition is told who has the
  // ticket now (`userName`, and the ticket as it is), never overwrites it.
  // Accept or reopen of a ticket another agent already has.
  ERR_TICKET_ALREADY_ACCEPTED: 409,
  // Close of a ticket someone else already closed.
  ERR_TICKET_ALREADY_CLOSED: 409,
  // The ticket is no longer in the state the client acted on (`expected`): changed meanwhile.
  ERR_TICKET_CHANGED: 409,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_EMPTY_MESSAGE: 400,
  // A {{placeholder}} that is not a message variable: it would reach the customer raw.
  ERR_UNKNOWN_MESSAGE_VARIABLE: 400,
  // The reason a message left pending by a stopped server was given up on; retrying a message that did not fail.
  ERR_SEND_INTERRUPTED: 400,
  ERR_MESSAGE_NOT_FAILED: 409,
  // Message actions (issue 32): edit only one's own sent text, within WhatsApp's 15 minutes; nothing on a deleted message;
  // edit and react need the channel's copy (a sent message); a channel that cannot edit (the Cloud API) says so.
  ERR_MESSAGE_NOT_EDITABLE: 400,
  ERR_EDIT_WINDOW_EXPIRED: 400,
  ERR_MESSAGE_DELETED: 400,
  ERR_MESSAGE_NOT_SENT: 400,
  ERR_EDIT_NOT_SUPPORTED: 400,
  ERR_EDITING_WAPP_MSG: 400,
  ERR_NO_STICKER_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_NOTE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_TAG_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_QUEUE_OPTION_ALREADY_EXISTS: 409,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_INTEGRATION_TEST_FAILED: 400,
  ERR_OUTBOUND_URL_REFUSED: 400,
  ERR_OUTSIDE_CUSTOMER_WINDOW: 400,
  ERR_INVALID_API_TOKEN: 401,
  // company API keys (issue 34): a key unknown, revoked or expired (or its admin's rights gone)
  ERR_INVALID_API_KEY: 401,
  // A key whose scopes do not include the one the route needs (named in `scope`).
  ERR_API_KEY_SCOPE: 403,
  // A route no API key may call (not in ROUTE_SCOPES), whatever its scopes.
  ERR_API_KEY_ROUTE: 403,
  ERR_NO_API_KEY_FOUND: 404,
  // two-factor sign-in (issue 35): a wrong, used or expired code (authenticator or recovery code)
  ERR_INVALID_TWO_FACTOR_CODE: 400,
  // The company requires a second factor and this user has none yet: only its set-up routes answer.
  ERR_TWO_FACTOR_SETUP_REQUIRED: 403,
  // Set-up asked while a second factor is on (turn it off first).
  ERR_TWO_FACTOR_ALREADY_ENABLED: 409,
  // Enable without a set-up, or disable without a second factor.
  ERR_TWO_FACTOR_NOT_SET_UP: 409,
  // The company requires a second factor: its users cannot turn theirs off.
  ERR_TWO_FACTOR_REQUIRED_BY_COMPANY: 403,
  // A signed-in user's password check failed (turning the second factor off): not a 401, the session stays.
  ERR_WRONG_PASSWORD: 400,
  // Web Push (issue 35): the caller has no subscription with that endpoint; the endpoint is another user's browser
  ERR_NO_PUSH_SUBSCRIPTION_FOUND: 404,
  ERR_PUSH_ENDPOINT_TAKEN: 409,
  // The endpoint's address is refused by the outgoing URL policy (loopback, private, ...)
  ERR_PUSH_ENDPOINT_REFUSED: 400,
  // event webhooks (issue 34 item 3)
  ERR_NO_WEBHOOK_FOUND: 404,
  ERR_NO_WEBHOOK_DELIVERY_FOUND: 404,
  // outbound engine and schedules (issue 20)
  ERR_NO_SCHEDULE_FOUND: 404,
  // A schedule already sent (sentAt) or being sent cannot be changed or submitted again.
  ERR_SCHEDULE_ALREADY_SENT: 409,
  // A schedule whose time passed longer ago than the overdue limit (the server was down).
  ERR_SCHEDULE_EXPIRED: 400,
  // A send cancelled before it went out (its campaign was cancelled).
  ERR_CANCELLED: 400,
  ERR_INVALID_FILE_TYPE: 400,
  // contact lists (issue 20)
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  // The number is already in this list.
  ERR_DUPLICATED_LIST_ITEM: 409,
  // The upload is not a spreadsheet we can read (.xlsx, or Excel 97–2003 .xls).
  ERR_INVALID_SPREADSHEET: 400,
  // A spreadsheet whose reading went past the reader's bounds: it inflates past 128 MiB, outgrows the
  // reader's memory or is not read within 10 s (a zip bomb, or a workbook far larger than an import needs).
  ERR_SPREADSHEET_TOO_LARGE: 413,
  // campaigns (issue 20)
  ERR_NO_CAMPAIGN_FOUND: 404,
  // Spec part 2 §4: editable only INATIVA, or PROGRAMADA more than an hour ahead (messages also when CANCELADA).
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  // Cancel needs a running or scheduled campaign; restart a cancelled one.
  ERR_CAMPAIGN_STATE: 409,
  // A campaign needs a connection, an audience (list or tag) and at least one message to start.
  ERR_CAMPAIGN_INCOMPLETE: 400,
  // file lists (issue 20)
  ERR_NO_FILE_LIST_FOUND: 404,
  // channel fidelity (issue 19): what WhatsApp answered about a send, or a file it holds
  // The number cannot receive the message (not on WhatsApp, blocked, or an old app): Cloud API 131026.
  ERR_WA_UNDELIVERABLE: 400,
  // WhatsApp's sending limit for the number was reached, even after waiting: 130429, 131048, 131056.
  ERR_WA_RATE_LIMITED: 429,
  // WhatsApp's servers failed for now (5xx, codes 1, 2, 131000), still after a few tries: try again later.
  ERR_WA_UNAVAILABLE: 503,
  // The connection's access token expired or was revoked: 190.
  ERR_WA_TOKEN_INVALID: 400,
  // A customer's file WhatsApp no longer has, could not be downloaded, arrived corrupt, or had no id.
  ERR_MEDIA_EXPIRED: 400,
  ERR_MEDIA_DOWNLOAD: 400,
  ERR_MEDIA_CHECKSUM: 400,
  ERR_MEDIA_MISSING: 400,
  // internal chat and announcements (issue 22)
  ERR_NO_CHAT_FOUND: 404,
  // Only the chat's owner edits or deletes it.
  ERR_NOT_CHAT_OWNER: 403,
  // The caller is not a member of the chat.
  ERR_NOT_CHAT_MEMBER: 403,
  // The owner deletes a chat instead of leaving it.
  ERR_CHAT_OWNER_CANNOT_LEAVE: 409,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  // SaaS lifecycle (issue 23)
  // The platform's public sign-up is turned off by a super user.
  ERR_SIGNUP_DISABLED: 403,
  // A password reset code that is wrong, used, expired or tried too often (one answer for all; the code is a credential).
  ERR_INVALID_RESET_CODE: 401,
  // No SMTP server is configured: codes and logins cannot be e-mailed (409: the install's state, not the request).
  ERR_MAIL_UNAVAILABLE: 409,
  ERR_NO_INVOICE_FOUND: 404,
  ERR_INVOICE_ALREADY_PAID: 409,
  ERR_NOTHING_TO_INVOICE: 409,
  // No Pix provider is configured (PIX_PROVIDER=none), or it cannot be reached now.
  ERR_PAYMENTS_UNAVAILABLE: 503,
  // The provider refused the card (not authorised, or data the issuer did not accept): nothing was charged.
  ERR_PAYMENT_REFUSED: 422,
  // The method (boleto, card) is not one the configured provider takes.
  ERR_PAYMENT_METHOD_UNAVAILABLE: 409,
  // whaticket v6's audio transcription: Atende transcribes nothing (no speech-to-text is configured).
  ERR_TRANSCRIPTION_UNAVAILABLE: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

// The body of every error response, ErrorResponse, is in error-response.ts: a zod schema, kept
// out of this module so that the web's first load, which reads the codes, carries no zod.
