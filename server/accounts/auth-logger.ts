import type { BetterAuthOptions } from "better-auth";
import { describeError, type LogFields, type Logger } from "../logger";

/**
 * Better Auth's `logger` option: its lines become ours (JSON, redacted:
 * "Sign-up attempt for existing email: …" names the address) instead of
 * plain text on the console. It passes info and above on, and our LOG_LEVEL
 * decides what is written. Not "debug": with the level "error", "warn" or
 * "debug", Better Auth also writes every refused request's message (a wrong
 * password, a weak one) through its own default logger, in plain text on the
 * console, besides this one (better-auth/dist/api/index.mjs, onError).
 */
export function betterAuthLogger(log: Logger): NonNullable<BetterAuthOptions["logger"]> {
  const auth = log.child({ source: "better-auth" });
  return {
    level: "info",
    log: (level, message, ...args: unknown[]) => auth[level](message, detailsOf(args)),
  };
}

/** Its extra arguments: an error is described as ours are, anything else kept as details. */
function detailsOf(args: unknown[]): LogFields | undefined {
  if (args.length === 0) return undefined;
  const error = args.find((arg) => arg instanceof Error);
  const rest = args.filter((arg) => arg !== error);
  return {
    ...(error ? describeError(error) : {}),
    ...(rest.length > 0 ? { details: rest } : {}),
  };
}
