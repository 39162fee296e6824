import { createContext } from "react-router";
import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Logger } from "./logger";

/** What every loader and action gets from the server, per request. */
export type AppContext = {
  db: Database;
  config: Config;
  log: Logger;
  requestId: string;
  /** CSP nonce for the inline scripts React Router writes into the document. */
  nonce: string;
};

export const appContext = createContext<AppContext>();
