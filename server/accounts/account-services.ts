import Redis from "ioredis";
import type { PasswordPolicy } from "../../common/password-policy";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { createLogger, describeError, type Logger } from "../logger";
import { createMailer, type Mailer } from "../mail/mailer";
import { type Auth, createAuth } from "./auth";
import { configuredProviderIds, type ExternalProviderId } from "./external-providers";
import { passwordPolicyFrom } from "./password-policy";
import {
  databaseRateLimitStore,
  keyedRateLimitStore,
  type RateLimits,
  redisRateLimitStore,
} from "./rate-limit";
import { endSessionsOf } from "./session-sync.server";

/** What the account screens and the HTTP layer need, built once per server. */
export type AccountServices = {
  auth: Auth;
  limits: RateLimits;
  policy: PasswordPolicy;
  providers: ExternalProviderId[];
  mailer: Mailer;
  /** Signs and checks device cookies (device-cookie.ts): the auth secret. */
  deviceSecret: string;
  /** Ends every session of a user outside Better Auth, telling the session sync (decision 0088). */
  endSessions(userId: string): Promise<number>;
  /** Closes connections of their own (the Redis rate-limit client) on shutdown. */
  close(): Promise<void>;
};

export function createAccountServices(db: Database, config: Config, log?: Logger): AccountServices {
  // Better Auth logs through ours in any case, never in plain text on the console.
  const authLog = log ?? createLogger(config.LOG_LEVEL);
  const store = keyedRateLimitStore(
    config.REDIS_URL
      ? redisRateLimitStore(redisClient(config.REDIS_URL, authLog))
      : databaseRateLimitStore(db),
    config.BETTER_AUTH_SECRET,
  );
  // Mails to one address count like attempts on one account, on every path.
  const mailer = createMailer(db, {
    from: config.MAIL_FROM,
    perRecipient: {
      store,
      rule: { window: config.RATE_LIMIT_WINDOW, max: config.RATE_LIMIT_PER_ACCOUNT },
    },
    log,
  });
  return {
    auth: createAuth({ db, config, mailer, rateLimitStore: store, log: authLog }),
    limits: {
      store,
      window: config.RATE_LIMIT_WINDOW,
      perIp: config.RATE_LIMIT_PER_IP,
      perAccount: config.RATE_LIMIT_PER_ACCOUNT,
    },
    policy: passwordPolicyFrom(config),
    providers: configuredProviderIds(config),
    mailer,
    deviceSecret: config.BETTER_AUTH_SECRET,
    endSessions: (userId) => endSessionsOf(db, config, userId),
    close: () => store.close(),
  };
}

/** ioredis prints a lost connection to the console unless someone listens: we log it. */
function redisClient(url: string, log: Logger) {
  const redis = new Redis(url, { lazyConnect: false });
  redis.on("error", (error) => log.warn("redis connection error", describeError(error)));
  return redis;
}
