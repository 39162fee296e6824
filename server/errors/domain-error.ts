/**
 * A failure the user can act on, thrown by domain functions and turned into
 * a response in one place: the status and a Japanese message for pages, and
 * `{ "error": { "code", "message" } }` for /api. Domains subclass it
 * (e.g. SlotTakenError in server/bookings/) so routes never pick statuses.
 */
export class DomainError extends Error {
  constructor(
    /** Stable machine code, snake_case, e.g. "slot_taken". */
    readonly code: string,
    /** Japanese, shown to the user as it is. */
    message: string,
    /** The HTTP status it maps to (4xx; 503 when the database is out of reach). */
    readonly status: number = 400,
    /** Extra fields for the API body or the page (e.g. field errors). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input the server cannot read or will not accept (400 unless told). */
export class BadRequestError extends DomainError {
  constructor(code: string, message: string, status = 400) {
    super(code, message, status);
  }
}

/** Something that does not exist, or that this visitor may not know exists. */
export class NotFoundError extends DomainError {
  constructor(message = "お探しのページ・データは見つかりませんでした。") {
    super("not_found", message, 404);
  }
}

/** Signed out where a session is needed (an API call without one). */
export class UnauthenticatedError extends DomainError {
  constructor(message = "ログインしてください。") {
    super("unauthorized", message, 401);
  }
}

/** The `{ "error": { "code", "message" } }` body every /api error answers with. */
export function errorBody(error: DomainError) {
  return { error: { code: error.code, message: error.message, ...error.details } };
}

/** Seconds a client is asked to wait when the database is out of reach (a failover takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database could not be reached or lost the connection (server/db/unavailable.ts):
 * 503 with Retry-After, since the same request will likely succeed in a moment.
 */
export class DatabaseUnavailableError extends DomainError {
  constructor() {
    super(
      "service_unavailable",
      "ただいま一時的にご利用いただけません。少し時間をおいてから、もう一度お試しください。",
      503,
      { retryAfter: DATABASE_RETRY_AFTER_SECONDS },
    );
  }
}
