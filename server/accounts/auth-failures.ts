import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthContext } from "better-auth";
import { isAPIError } from "better-auth/api";
import { isDatabaseUnavailable } from "../db/unavailable";

/**
 * Better Auth's HTTP handler answers a fault with a bare 500 (an APIError
 * it made, such as the session lookup's FAILED_TO_GET_SESSION, or any other
 * error), so the app could not tell a lost database (503 with Retry-After)
 * from a bug. Two of its hooks see the error: the after hook gets an
 * endpoint's APIError as `ctx.context.returned`, and `onAPIError.onError`
 * gets what escaped the endpoint. Both keep a lost database's error here,
 * for the request being handled; server/http/app.ts reads it back after
 * the handler and answers 503.
 */
const failures = oneStore();

/**
 * One store per process, even when this module is loaded twice — directly
 * and through Vite, as the dev server and the tests do — so Better Auth's
 * hooks and the HTTP app always share it.
 */
function oneStore() {
  const key = Symbol.for("salon-navi.auth-failures");
  const global = globalThis as typeof globalThis & {
    [key: symbol]: AsyncLocalStorage<{ error?: unknown }> | undefined;
  };
  global[key] ??= new AsyncLocalStorage();
  return global[key];
}

/** The handler's answer, and the lost database's error it answered for, if any. */
export async function withAuthFailure(
  handle: () => Promise<Response>,
): Promise<{ answer: Response; lostDatabase: unknown }> {
  const kept: { error?: unknown } = {};
  const answer = await failures.run(kept, handle);
  return { answer, lostDatabase: kept.error };
}

/** Keeps `error` for the request being handled when it is a lost database. */
export function keepLostDatabase(error: unknown) {
  const kept = failures.getStore();
  if (kept && isDatabaseUnavailable(error)) kept.error = error;
}

/**
 * Better Auth's onAPIError.onError: keeps a lost database, and logs what
 * Better Auth logs when no hook is set — its faults, not the refusals (a
 * wrong password) — except a lost database, which the app logs as a warning.
 */
export function onAuthError(error: unknown, ctx: Pick<AuthContext, "logger">) {
  keepLostDatabase(error);
  if (isDatabaseUnavailable(error)) return;
  if (isAPIError(error)) {
    if (error.status === "INTERNAL_SERVER_ERROR") ctx.logger.error(error.status, error);
  } else {
    ctx.logger.error(error instanceof Error ? error.name : "", error);
  }
}
