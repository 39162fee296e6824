import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { prepareDatabase } from "../server/prepare-database.server";

const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
const recomputed = await prepareDatabase(handle);
await handle.close();
console.log(
  `migrations applied (${handle.engine}); search terms of ${recomputed} salons recomputed`,
);
