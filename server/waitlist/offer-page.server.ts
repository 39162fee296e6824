import { toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { declineOffer, getOfferForUser } from "./waitlist.server";

/**
 * /account/waitlist/offers/:offerId (issue 30, point 4): the time a
 * waiting-list offer holds for its visitor, the deadline, the way into the
 * booking flow's confirm step for that hold (the visitor's own held row, so
 * the step takes it as it is) and 辞退する. The offer mail links here.
 */

/** open: can be booked now; the others say why not. */
export type OfferPageState = "open" | "expired" | "accepted" | "withdrawn";

export type OfferPage = {
  id: string;
  state: OfferPageState;
  /** Why it can no longer be booked, in Japanese; null while open. */
  message: string | null;
  salon: { slug: string; name: string; timeZone: string };
  /** The salon's local date of the time, YYYY-MM-DD. */
  date: string;
  /** ISO instants. */
  startsAt: string;
  endsAt: string;
  expiresAt: string;
  now: string;
  staffName: string;
  staffRequested: boolean;
  menus: { name: string; price: number; durationMinutes: number }[];
  totalPrice: number | null;
  /** The confirm step for the hold, while open. */
  bookHref: string | null;
  /** The booking in the history, once taken. */
  bookingHref: string | null;
};

export const offerMessages = {
  expired:
    "このご案内は有効期限が過ぎたため、終了しました。お時間は次にお待ちの方へご案内しています。",
  accepted: "このご案内のお時間は、すでにご予約済みです。",
  withdrawn:
    "このご案内は取り消されました（辞退された、またはサロンの都合でお時間がなくなりました）。",
} as const;

/**
 * The visitor's offer as the page shows it. Someone else's or a missing one
 * throws WaitlistOfferNotFoundError (the route's 404).
 */
export async function loadOfferPage(
  db: Database,
  input: { userId: string; offerId: string; now: Date },
): Promise<OfferPage> {
  const offer = await getOfferForUser(db, input);
  const state: OfferPageState = offer.bookable
    ? "open"
    : offer.status === "accepted"
      ? "accepted"
      : offer.status === "withdrawn"
        ? "withdrawn"
        : "expired";
  return {
    id: offer.id,
    state,
    message: state === "open" ? null : offerMessages[state],
    salon: {
      slug: offer.salon.slug,
      name: offer.salon.name,
      timeZone: offer.salon.timeZone,
    },
    date: toLocal(offer.startsAt, offer.salon.timeZone).date,
    startsAt: offer.startsAt.toISOString(),
    endsAt: offer.endsAt.toISOString(),
    expiresAt: offer.expiresAt.toISOString(),
    now: input.now.toISOString(),
    staffName: offer.staff.name,
    staffRequested: offer.staffRequested,
    menus: offer.menus.map(({ name, price, durationMinutes }) => ({
      name,
      price,
      durationMinutes,
    })),
    totalPrice: offer.totalPrice,
    bookHref:
      state === "open" && offer.holdId
        ? `/salons/${offer.salon.slug}/confirm?hold=${offer.holdId}`
        : null,
    bookingHref:
      state === "accepted" && offer.holdId ? `/account/history?booking=${offer.holdId}` : null,
  };
}

/**
 * 辞退する: the hold is released and the time offered to the next in line.
 * Declined: to the history's waiting list with its notice. An offer no
 * longer open: the page again with the reason (410), not a 5xx.
 */
export async function declineFromOfferPage(
  db: Database,
  input: { userId: string; offerId: string; now: Date },
): Promise<{ kind: "redirect"; to: string } | { kind: "refused"; status: number; error: string }> {
  try {
    await declineOffer(db, input);
  } catch (error) {
    if (!(error instanceof DomainError) || error.status === 404) throw error;
    return { kind: "refused", status: error.status, error: error.message };
  }
  return { kind: "redirect", to: "/account/history?waitlist=declined#waitlist" };
}
