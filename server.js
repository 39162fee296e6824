// Production entry: the server bundle built by `npm run build`. With
// WEB_CONCURRENCY on PostgreSQL, one process per worker (server/cluster.ts).
import { serveProcesses, start } from "./build/server/index.js";

await serveProcesses((options) => start(process.env, options));
