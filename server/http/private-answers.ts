import type { MiddlewareHandler } from "hono";
import { isApiPath } from "./errors";

/** Better Auth's session cookie, with the __Secure- prefix it takes over HTTPS. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/**
 * Answers that may be personal are never stored by a browser or a shared
 * cache: every /api answer, and every answer to a signed-in request (a
 * session cookie or bearer token) or that signs someone in. Registered after
 * the static files, whose own long-lived headers stay.
 */
export function privateAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const personal =
      isApiPath(c.req.path) ||
      c.req.header("authorization") !== undefined ||
      SESSION_COOKIE.test(c.req.header("cookie") ?? "") ||
      c.res.headers.getSetCookie().some((line) => /session_token=/.test(line));
    if (personal) c.res.headers.set("Cache-Control", "private, no-store");
  };
}
