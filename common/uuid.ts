/**
 * A UUID as the database writes it (lower case) or a client may send it
 * (upper case). Written without regex flags on purpose: the same pattern is
 * the OpenAPI document's `pattern`, and JSON Schema has no flags (a `/i`
 * carried into it made generated clients reject every id).
 */
export const UUID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Whether a value from a URL, form or body is a UUID, before it reaches a uuid column. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}
