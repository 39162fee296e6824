import { createContext } from "react-router";
import type { AccountServices } from "./accounts/account-services";
import type { Config } from "./config";
import type { Database } from "./db/client";
import type { DomainError } from "./errors/domain-error";
import type { LineChannel } from "./line/line-channel.server";
import type { Logger } from "./logger";
import type { PaymentProvider } from "./payments/provider.server";
import type { PhotoStore } from "./photos/photo-store.server";
import type { RedirectRuleCache } from "./routing/redirect-rules";

/** What every loader and action gets from the server, per request. */
export type AppContext = {
  /** The primary: every write, and every read that decides or shows a booking, a hold, an account. */
  db: Database;
  /**
   * For reads that may lag a moment (decision 0074): search, areas,
   * listings, a salon's public tabs, the sitemap. The replica of
   * DATABASE_REPLICA_URL, or the primary when there is none or when this
   * browser wrote a few seconds ago (it reads its own writes).
   */
  readDb: Database;
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
  /**
   * Stripe, or the local fake (name "fake": its pages say テスト決済); null
   * when this server takes no online payment (production without a key).
   */
  payments: PaymentProvider | null;
  /** The LINE channel or its local fake (/dev/line reads the fake); absent: none. */
  line?: LineChannel | null;
  /** Input the HTTP layer refused (server/http/input-screen.ts); the root middleware throws it. */
  inputError?: DomainError;
};

export const appContext = createContext<AppContext>();
