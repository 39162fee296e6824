import { createHash } from "node:crypto";

/**
 * Deterministic UUIDs for seed rows: the SHA-1 of a stable key such as
 * `salon:42`, laid out as a version-5 UUID. Re-running the seed produces the
 * same ids, so `on conflict do nothing` skips rows that already exist.
 */
export function seedId(key: string): string {
  const hex = createHash("sha1").update(`salon-booking-seed:${key}`).digest("hex");
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join("-");
}
