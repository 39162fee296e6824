import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";

/**
 * A browser reads its own writes (decision 0074). With a read replica, the
 * pages that read it may lag the primary by a moment; a visitor who has
 * just booked, cancelled, reviewed or favorited must not see the page from
 * before. So any write that succeeded (a non-GET answered below 400, by
 * whoever: member, owner or guest) sets this cookie, and while the browser
 * sends it every read of its requests goes to the primary.
 *
 * It names no one and grants nothing: a forged one only sends that
 * browser's reads to the primary (and past the page cache, which any
 * cookie bypasses).
 */
export const READ_PRIMARY_COOKIE = "read_primary";
/** Long enough for any lag the replica should ever have; it is renewed by each write. */
export const READ_PRIMARY_SECONDS = 15;

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function readOwnWrites({ secure }: { secure: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (READS.has(c.req.method) || c.res.status >= 400) return;
    const cookie = `${READ_PRIMARY_COOKIE}=1; Max-Age=${READ_PRIMARY_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
    // Appended, not set: the answer keeps the session's or the hold's cookies.
    try {
      c.res.headers.append("set-cookie", cookie);
    } catch {
      // Response.redirect() and fetched answers have immutable headers: a copy takes it.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("set-cookie", cookie);
    }
  };
}

/** Whether this request's reads must go to the primary (the browser wrote a moment ago). */
export function readsPrimary(c: Context): boolean {
  return getCookie(c, READ_PRIMARY_COOKIE) !== undefined;
}
