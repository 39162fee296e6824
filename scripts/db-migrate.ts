import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { ensureSearchTermsCurrent } from "../server/salons/search-terms-state.server";

const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
await handle.migrate();
// Derived data a migration or a new dictionary left stale (decision 0023); the server does it too.
const recomputed = await ensureSearchTermsCurrent(handle.db);
await handle.close();
console.log(
  `migrations applied (${handle.engine}); search terms of ${recomputed} salons recomputed`,
);
