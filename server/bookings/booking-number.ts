import { randomInt } from "node:crypto";

/** Crockford's base32: no I, L, O or U, so a number read out on the phone is unambiguous. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A booking number such as "7K3M-Q9XD": 8 symbols from a cryptographic
 * random source (40 bits), so it reveals neither order nor volume. Unique
 * per salon (bookings_salon_number_unique); a collision is retried by the
 * caller.
 */
export function newBookingNumber(): string {
  let text = "";
  for (let i = 0; i < 8; i++) text += ALPHABET[randomInt(ALPHABET.length)];
  return `${text.slice(0, 4)}-${text.slice(4)}`;
}

/** The number as typed by a person: case, spaces and the look-alikes I/L → 1, O → 0. */
export function normalizeBookingNumber(input: string): string {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  return compact.length === 8 ? `${compact.slice(0, 4)}-${compact.slice(4)}` : compact;
}
