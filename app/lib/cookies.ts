import { parseCookie } from "cookie";

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

/**
 * A preference cookie readable by the page's own script (no secrets in it).
 * Written here rather than with the package's serializer: the browser's
 * viewport hook calls it, and the serializer's validation was ~1 KB gzip of
 * every page's first load (issue 42). Names and values are our own constants
 * (themes, viewport names), checked below so a wrong one fails loudly.
 */
export function preferenceCookie(name: string, value: string, maxAgeSeconds: number): string {
  if (!TOKEN.test(name) || !TOKEN.test(value) || !Number.isInteger(maxAgeSeconds)) {
    throw new TypeError(`not a preference cookie: ${name}=${value}`);
  }
  return `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax`;
}

/** Letters, digits, - and _: what our preference names and values are made of. */
const TOKEN = /^[\w-]+$/;
