/** SQLSTATEs the code reacts to. */
export const EXCLUSION_VIOLATION = "23P01";
export const UNIQUE_VIOLATION = "23505";
/**
 * Two transactions that each wait on the other's row: exclusion constraints
 * can end that way when both write an overlapping row at once (PostgreSQL
 * documents it). One is aborted; run again, it meets the winner's committed
 * row and gets EXCLUSION_VIOLATION like any other loser.
 */
export const DEADLOCK_DETECTED = "40P01";
/** A transaction PostgreSQL could not serialize with another (SERIALIZABLE or REPEATABLE READ). */
export const SERIALIZATION_FAILURE = "40001";

/** The SQLSTATE of a database error (both drivers), looking through Drizzle's wrapper. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (typeof current === "object" && current && "code" in current) {
      const code = (current as { code: unknown }).code;
      if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
