/**
 * Whether an error means the database could not be reached or dropped the
 * connection — a failover, a restart, a replica gone — rather than a fault
 * in the query. Such a request is answered 503 with Retry-After (the next
 * try may well succeed), not 500. The error may come wrapped: Drizzle puts
 * the driver's error in `cause`, Better Auth wraps a failed session lookup
 * in its own APIError with the original as `cause`, and Node reports a
 * refused connection to several addresses as an AggregateError.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someInChain(error, 0, (current) => {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_STATES.test(code) || NETWORK_CODES.has(code))) {
      return true;
    }
    const message = (current as { message?: unknown }).message;
    return typeof message === "string" && LOST_MESSAGES.some((lost) => message.startsWith(lost));
  });
}

/**
 * SQLSTATEs: class 08 (connection exception), 57P01–57P03 (the server is
 * shutting down, crashed, or not yet accepting connections: a failover's
 * states), 53300 (too many connections), 25006 (a write reached a server
 * that was demoted to standby a moment ago), 3D000 (the database named in
 * the URL is not there: a node still being rebuilt).
 */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300|25006|3D000)$/;

/** Node's socket errors for a server that is gone or not reachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/** node-postgres's own messages for a connection lost or never made (no code on them). */
const LOST_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];

const MAX_DEPTH = 8;

function someInChain(error: unknown, depth: number, test: (error: object) => boolean): boolean {
  if (depth > MAX_DEPTH || typeof error !== "object" || error === null) return false;
  if (test(error)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => someInChain(e, depth + 1, test)))
    return true;
  return someInChain((error as { cause?: unknown }).cause, depth + 1, test);
}
