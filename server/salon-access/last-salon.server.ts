import { parseCookie, stringifySetCookie } from "cookie";
import { UUID_PATTERN } from "../../common/uuid";

/**
 * The salon a browser last opened in the back office (issue 38, point 7):
 * /owner opens it again next time, if the person still belongs to it
 * (backOfficeStart checks; the cookie only names a salon, it grants nothing).
 * A cookie rather than a stored preference: a reception tablet and the
 * owner's phone may each have their own salon open.
 */
export const LAST_SALON_COOKIE = "owner_last_salon";
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

const opened = new WeakMap<Request, string>();

/** Called by the salon pages' guard once access is granted: this request opened the salon. */
export function rememberOpenedSalon(request: Request, salonId: string) {
  if (request.method === "GET") opened.set(request, salonId);
}

/** The salon the browser opened last, or null (none, or not a salon id). */
export function lastOpenedSalon(request: Request): string | null {
  const value = parseCookie(request.headers.get("cookie") ?? "")[LAST_SALON_COOKIE];
  return value && UUID_PATTERN.test(value) ? value : null;
}

/**
 * The Set-Cookie of a page that opened a salon other than the one
 * remembered, or null: sent with the page (the root middleware), only to /owner.
 */
export function lastSalonCookie(request: Request, secure: boolean): string | null {
  const salonId = opened.get(request);
  if (!salonId || lastOpenedSalon(request) === salonId) return null;
  return stringifySetCookie(LAST_SALON_COOKIE, salonId, {
    path: "/owner",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: MAX_AGE_SECONDS,
  });
}
