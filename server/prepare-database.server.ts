import { backfillSalonCustomers } from "./bookings/salon-customers.server";
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
  // Bookings made before salons had customer records (migration 0019) get theirs once.
  const linked = await backfillSalonCustomers(database.db);
  if (linked > 0) log?.info("customer records linked", { bookings: linked });
  const recomputed = await ensureSearchTermsCurrent(database.db);
  if (recomputed > 0) log?.info("search terms recomputed", { salons: recomputed });
  return recomputed;
}
