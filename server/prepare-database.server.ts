import type { DatabaseHandle } from "./db/client";
import type { Logger } from "./logger";
import { ensureSearchTermsCurrent } from "./salons/search-terms-state.server";

/**
 * What every entry point runs on a database before using it (the server or
 * the cluster's primary, the dev server, db:migrate, db:seed): the
 * migrations, then the search tokens a migration or this deploy's
 * dictionary left stale (decision 0023). Returns how many salons' tokens
 * were recomputed.
 */
export async function prepareDatabase(database: DatabaseHandle, log?: Logger): Promise<number> {
  await database.migrate();
  const recomputed = await ensureSearchTermsCurrent(database.db);
  if (recomputed > 0) log?.info("search terms recomputed", { salons: recomputed });
  return recomputed;
}
