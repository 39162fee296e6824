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
    /** The HTTP status it maps to (4xx). */
    readonly status: number = 400,
    /** Extra fields for the API body or the page (e.g. field errors). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
