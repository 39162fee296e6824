import { waitlistWindowText } from "../../common/waitlist";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { leaveWaitlist, listWaitlistForUser } from "./waitlist.server";
import { WaitlistNotFoundError } from "./waitlist-errors";

/**
 * The キャンセル待ち section of /account/history (issue 30, point 4): the
 * visitor's entries, an open offer's deadline and link, and leaving one
 * (POST /account/waitlist, intent=leave).
 */

export type HistoryWaitlistEntry = {
  id: string;
  statusLabel: string;
  /** waiting or offered: it can be left. */
  live: boolean;
  /** The salon's local date, YYYY-MM-DD. */
  date: string;
  windowText: string;
  salon: { slug: string; name: string; timeZone: string };
  menuNames: string[];
  staffLabel: string;
  /** The open offer: its page and deadline (ISO). */
  offer: { id: string; href: string; startsAt: string; expiresAt: string } | null;
  /** The booking it became (予約済み), in the history. */
  bookingHref: string | null;
};

export type HistoryWaitlist = {
  entries: HistoryWaitlistEntry[];
  /** After leaving an entry or declining an offer. */
  notice: "left" | "declined" | null;
};

/** How many ended entries the section keeps showing under the live ones. */
const ENDED_SHOWN = 10;

export async function historyWaitlist(
  db: Database,
  userId: string,
  params: URLSearchParams,
  now: Date,
): Promise<HistoryWaitlist> {
  const all = await listWaitlistForUser(db, userId, now);
  const live = all.filter((entry) => entry.live);
  const ended = all.filter((entry) => !entry.live).slice(0, ENDED_SHOWN);
  const flag = params.get("waitlist");
  return {
    entries: [...live, ...ended].map((entry) => ({
      id: entry.id,
      statusLabel: entry.statusLabel,
      live: entry.live,
      date: entry.date,
      windowText: waitlistWindowText(entry.windowStart, entry.windowEnd),
      salon: { slug: entry.salon.slug, name: entry.salon.name, timeZone: entry.salon.timeZone },
      menuNames: entry.menus.map((menu) => menu.name),
      staffLabel: entry.staffLabel,
      offer: entry.offer
        ? {
            id: entry.offer.id,
            href: `/account/waitlist/offers/${entry.offer.id}`,
            startsAt: entry.offer.startsAt.toISOString(),
            expiresAt: entry.offer.expiresAt.toISOString(),
          }
        : null,
      bookingHref: entry.bookingId ? `/account/history?booking=${entry.bookingId}` : null,
    })),
    notice: flag === "left" || flag === "declined" ? flag : null,
  };
}

/**
 * キャンセル待ちをやめる: left, back to the section with its notice; one
 * already ended: its message (409); someone else's or a missing one:
 * WaitlistNotFoundError (the route's 404).
 */
export async function leaveFromHistory(
  db: Database,
  input: { userId: string; entryId: string; now: Date },
): Promise<{ kind: "redirect"; to: string } | { kind: "refused"; status: number; error: string }> {
  try {
    await leaveWaitlist(db, input);
  } catch (error) {
    if (!(error instanceof DomainError) || error instanceof WaitlistNotFoundError) throw error;
    return { kind: "refused", status: error.status, error: error.message };
  }
  return { kind: "redirect", to: "/account/history?waitlist=left#waitlist" };
}
