import { normalizeEmail } from "../../common/field-rules";
import type { RateLimitStore } from "./rate-limit";

/**
 * How long a reset link works, and how long one address waits for its next
 * reset mail asked from a browser it never signed in with. The same length
 * on purpose: whenever a mail is withheld, the address was sent a link
 * that still works (decision 0065).
 */
export const RESET_LINK_SECONDS = 3600;

/**
 * Whether a reset link may be mailed to `email` now. Asked from a known
 * device of the account (`device`, device-cookie.ts), always: that browser's
 * requests are counted on its own allowance (rate-limit.ts), so strangers can
 * neither spend its mails nor delay them. Asked from anywhere else, one mail
 * per address per RESET_LINK_SECONDS: strangers cannot flood a mailbox. The
 * caller answers the same either way, so the requester never learns which.
 */
export async function resetMailAllowed(
  store: RateLimitStore,
  email: string,
  device: string | null,
): Promise<boolean> {
  if (device) return true;
  const key = `password-reset:mail:${normalizeEmail(email).toLowerCase()}`;
  const result = await store.consume(key, { window: RESET_LINK_SECONDS, max: 1 });
  return result.allowed;
}
