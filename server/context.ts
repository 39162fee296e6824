import { createContext } from "react-router";
import type { AccountServices } from "./accounts/account-services";
import type { Config } from "./config";
import type { Database } from "./db/client";
import type { DomainError } from "./errors/domain-error";
import type { Logger } from "./logger";
import type { PhotoStore } from "./photos/photo-store.server";
import type { RedirectRuleCache } from "./routing/redirect-rules";

/** What every loader and action gets from the server, per request. */
export type AppContext = {
  db: Database;
  config: Config;
  log: Logger;
  requestId: string;
  /** CSP nonce for the inline scripts React Router writes into the document. */
  nonce: string;
  /** Better Auth, rate limits and the password policy (server/accounts/). */
  accounts: AccountServices;
  /** Route rules cache; domain functions that change rules invalidate it. */
  redirects: RedirectRuleCache;
  /** Where uploaded photos are stored (local folder or S3). */
  photos: PhotoStore;
  /** Input the HTTP layer refused (server/http/input-screen.ts); the root middleware throws it. */
  inputError?: DomainError;
};

export const appContext = createContext<AppContext>();
