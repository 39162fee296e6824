import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { normalizeEmail } from "../../common/field-rules";

/**
 * OWASP's device cookie (Authentication Cheat Sheet, "Slow down online
 * guessing attacks with device cookies"): a browser where an account signed
 * in successfully gets a signed cookie naming that account. Wrong passwords
 * from such a browser count against its own allowance, not the account's,
 * so a stranger's guesses, which lock the account for unknown browsers,
 * never lock its owner out of the browsers they already use (decision 0026).
 *
 * Value: `<nonce>.<account tag>.<HMAC-SHA256 of both under the auth secret>`.
 * The tag is a hash of the normalised address, so the cookie holds no
 * address and a cookie of one account does nothing for another.
 */
export const DEVICE_COOKIE = "device";

/** A year: the device stays known as long as a browser keeps its cookies. */
const MAX_AGE = 365 * 24 * 3600;

const accountTag = (email: string) =>
  createHash("sha256").update(normalizeEmail(email).toLowerCase()).digest("base64url").slice(0, 22);

const mac = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(`device:${payload}`).digest("base64url");

export function deviceCookieValue(secret: string, email: string, nonce = newNonce()) {
  const payload = `${nonce}.${accountTag(email)}`;
  return `${payload}.${mac(secret, payload)}`;
}

export function deviceCookieAttributes(secure: boolean) {
  return { path: "/", maxAge: MAX_AGE, httpOnly: true, sameSite: "lax" as const, secure };
}

function newNonce() {
  return randomBytes(16).toString("base64url");
}

/**
 * The device id (the nonce) of the request's device cookie when it is
 * genuine and was issued for `email`; null otherwise (none, forged, or
 * another account's). Takes the headers, which every path has: a form's
 * request, /api/auth's, and Better Auth's own call context.
 */
export function trustedDevice(headers: Headers, secret: string, email: string): string | null {
  const value = cookieValue(headers.get("cookie") ?? "", DEVICE_COOKIE);
  if (!value) return null;
  const [nonce, tag, signature, ...rest] = value.split(".");
  if (!nonce || !tag || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, `${nonce}.${tag}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return tag === accountTag(email) ? nonce : null;
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    return part.slice(index + 1).trim();
  }
  return null;
}
