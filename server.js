// Production entry: the server bundle built by `npm run build`.
import { start } from "./build/server/index.js";

await start();
