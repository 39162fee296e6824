import { parseCookie, stringifySetCookie } from "cookie";

/**
 * One cookie's value from a Cookie header (or document.cookie), or undefined.
 * The maintained parser never throws: a value that is not valid
 * percent-encoding (e.g. `theme=%E0`, planted by anyone) comes back as it is,
 * and the caller's own check then ignores it.
 */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  return parseCookie(header)[name];
}

/** A preference cookie readable by the page's own script (no secrets in it). */
export function preferenceCookie(name: string, value: string, maxAgeSeconds: number): string {
  return stringifySetCookie(name, value, { path: "/", maxAge: maxAgeSeconds, sameSite: "lax" });
}
