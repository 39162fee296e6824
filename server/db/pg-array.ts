/**
 * A list as ONE array parameter (`'{a,b}'`, cast in the SQL: `${pgArray(ids)}::uuid[]`),
 * where drizzle's `inArray` binds one parameter per item: one statement text for
 * any count, and cheaper to bind and plan (issue 42: a page's 20 ids). Only for
 * items that need no quoting in an array literal: uuids, slugs, status names.
 */
export const pgArray = (items: readonly string[]) => `{${items.join(",")}}`;
