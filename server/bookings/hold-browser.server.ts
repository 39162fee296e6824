import { createHash, randomBytes } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";

/**
 * Binds a guest's hold to the browser that made it (decision 0016): a
 * random key in an HttpOnly cookie, its SHA-256 on the hold row. The hold
 * URL alone (shared, or seen over a shoulder) is then no way to see or
 * claim someone else's hold. A member's hold is bound to the member.
 */
export const HOLD_BROWSER_COOKIE = "salon_hold_browser";
/** Long enough for a guest to sign up on the way (the hold itself lasts minutes). */
const MAX_AGE_SECONDS = 24 * 60 * 60;
const KEY = /^[A-Za-z0-9_-]{43}$/;

/** The browser's key from its cookie, or null when it has none (or a malformed one). */
export function holdBrowserKey(request: Request): string | null {
  const value = parseCookie(request.headers.get("cookie") ?? "")[HOLD_BROWSER_COOKIE];
  return value && KEY.test(value) ? value : null;
}

/** The browser's key, or a new one (256 random bits) for a browser that has none. */
export function holdBrowserKeyOrNew(request: Request): string {
  return holdBrowserKey(request) ?? randomBytes(32).toString("base64url");
}

export function hashHoldBrowserKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Set-Cookie for the key: only sent to the salon pages, never readable by scripts. */
export function holdBrowserCookie(key: string, secure: boolean): string {
  return stringifySetCookie(HOLD_BROWSER_COOKIE, key, {
    path: "/salons",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: MAX_AGE_SECONDS,
  });
}

export type HoldHolder = { userId: string | null; holderKeyHash: string | null };
/** Who is looking: the signed-in member (or null) and the browser's key (or null). */
export type HoldViewer = { userId: string | null; browserKey: string | null };

/**
 * A member's hold belongs to that member; a guest's hold to the browser
 * whose key it was made with. A guest hold without a key belongs to nobody.
 */
export function holdBelongsTo(hold: HoldHolder, viewer: HoldViewer): boolean {
  if (hold.userId !== null) return hold.userId === viewer.userId;
  return (
    hold.holderKeyHash !== null &&
    viewer.browserKey !== null &&
    hashHoldBrowserKey(viewer.browserKey) === hold.holderKeyHash
  );
}
