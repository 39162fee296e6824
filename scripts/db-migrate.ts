import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";

const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
await handle.migrate();
await handle.close();
console.log(`migrations applied (${handle.engine})`);
