import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * A `time` column as local "HH:MM", the form the UI, the forms and the
 * availability engine use (both drivers would otherwise answer "HH:MM:SS").
 */
export function localTime(column: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column}, 'HH24:MI')`;
}
