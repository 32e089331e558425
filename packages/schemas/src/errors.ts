/**
 * The one error table: every error the service answers, its HTTP status, the plain-text body
 * and whether it costs a credit. REST and MCP both answer from here.
 */
export const ERROR_KINDS = {
  bad_parameter: { status: 400, retry: false },
  no_embedder: { status: 400, retry: false },
  unauthenticated: { status: 401, retry: false },
  suspended: { status: 402, retry: false },
  not_found: { status: 404, retry: false },
  method_not_allowed: { status: 405, retry: false },
  timeout: { status: 408, retry: true },
  payload_too_large: { status: 413, retry: false },
  rate_limited: { status: 429, retry: true },
  credits_exhausted: { status: 429, retry: false },
  auth_flood: { status: 429, retry: true },
  no_shard: { status: 503, retry: false },
  at_capacity: { status: 503, retry: true },
  shutting_down: { status: 503, retry: true },
  store_unavailable: { status: 503, retry: true },
  embedder_unavailable: { status: 503, retry: true },
  internal: { status: 500, retry: true },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** An error a route or tool answers with; the transport turns it into status + text/plain body. */
export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  /** seconds, sent as `retry-after` when set */
  readonly retryAfter?: number;
  /** The call ran (it searched) before it failed: billed its failure cost, not released. */
  readonly ran: boolean;

  constructor(kind: ErrorKind, message: string, options: { retryAfter?: number; ran?: boolean } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = ERROR_KINDS[kind].status;
    this.retryAfter = options.retryAfter;
    this.ran = options.ran ?? false;
  }
}

/**
 * The error a call that already ran answers with: the same status and text, marked as run so
 * it is billed its failure cost. An error that is not a ServiceError becomes the internal one
 * (its detail goes to the operator's log).
 */
export function ranAndFailed(error: unknown): ServiceError {
  if (error instanceof ServiceError) {
    return error.ran ? error : new ServiceError(error.kind, error.message, { retryAfter: error.retryAfter, ran: true });
  }
  console.error('internal error after the call ran:', error);
  return new ServiceError('internal', 'internal error', { ran: true });
}

/** Fixed bodies that must not vary (401 reveals nothing about why a key failed). */
export const UNAUTHENTICATED_BODY = 'unauthenticated: missing, unknown or revoked api key';

export const errors = {
  badParameter: (name: string, accepts: string) =>
    new ServiceError('bad_parameter', `invalid parameter ${name}: ${accepts}`),
  unauthenticated: () => new ServiceError('unauthenticated', UNAUTHENTICATED_BODY),
  suspended: () => new ServiceError('suspended', 'account suspended for billing'),
  notFound: (what: string) => new ServiceError('not_found', `not found: ${what}`),
  rateLimited: (retryAfter: number) =>
    new ServiceError('rate_limited', `rate limited: per-minute credits spent, retry after ${retryAfter}s`, { retryAfter }),
  creditsExhausted: () =>
    new ServiceError('credits_exhausted', 'monthly credits exhausted: hard cap reached until the next period'),
  authFlood: (retryAfter: number) =>
    new ServiceError('auth_flood', `too many unauthenticated calls from this address, retry after ${retryAfter}s`, { retryAfter }),
  noShard: () => new ServiceError('no_shard', 'no shard can serve this request'),
  atCapacity: (retryAfter: number) =>
    new ServiceError('at_capacity', `at capacity, retry after ${retryAfter}s`, { retryAfter }),
  timeout: () => new ServiceError('timeout', 'request exceeded the server timeout'),
  payloadTooLarge: (maxBytes: number) =>
    new ServiceError('payload_too_large', `payload too large: a request body may hold at most ${maxBytes} bytes`),
  shuttingDown: () =>
    new ServiceError('shutting_down', 'unavailable: this server is shutting down; retry (on another node) after 1s', { retryAfter: 1 }),
  storeUnavailable: (retryAfter: number) =>
    new ServiceError('store_unavailable', `unavailable: the accounts store is busy or unreachable, retry after ${retryAfter}s`, { retryAfter }),
};
