import { useEffect, useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { toLocal } from "../../../common/local-time";
import { formatLocalDate } from "../../lib/booking-format";

/** One open offer as GET /api/waitlist/events sends it (server/waitlist/live-offers.server.ts). */
type LiveOffer = {
  offerId: string;
  href: string;
  salonName: string;
  startsAt: string;
  expiresAt: string;
  timeZone: string;
};

/** The offers of a `waitlist` event's data, or null when it is not what the API sends. */
export function liveOffersOf(message: string): LiveOffer[] | null {
  try {
    const parsed = JSON.parse(message) as { data?: unknown };
    if (!Array.isArray(parsed.data)) return null;
    return parsed.data.filter(
      (offer): offer is LiveOffer =>
        typeof offer?.offerId === "string" &&
        typeof offer.href === "string" &&
        offer.href.startsWith("/account/waitlist/offers/") &&
        typeof offer.salonName === "string" &&
        typeof offer.startsAt === "string" &&
        typeof offer.expiresAt === "string" &&
        typeof offer.timeZone === "string",
    );
  } catch {
    return null;
  }
}

/**
 * The live notice of a waiting-list offer (issue 30, point 4): for a
 * signed-in visitor, once the page is hydrated, follows
 * GET /api/waitlist/events and shows each open offer the page did not
 * already show (`known`) in a role="status" region, with its link. The
 * region is always there, so screen readers announce what appears in it.
 */
export function WaitlistLiveNotice({ known = [] }: { known?: readonly string[] }) {
  const signedIn = Boolean(useRouteLoaderData<{ user: unknown }>("root")?.user);
  const [offers, setOffers] = useState<LiveOffer[]>([]);
  useEffect(() => {
    if (!signedIn || typeof EventSource === "undefined") return;
    const source = new EventSource("/api/waitlist/events");
    source.addEventListener("waitlist", (event) => {
      const list = liveOffersOf((event as MessageEvent<string>).data);
      if (list) setOffers(list);
    });
    return () => source.close();
  }, [signedIn]);
  const fresh = offers.filter((offer) => !known.includes(offer.offerId));
  return (
    <div role="status">
      {fresh.map((offer) => {
        const start = toLocal(new Date(offer.startsAt), offer.timeZone);
        const deadline = toLocal(new Date(offer.expiresAt), offer.timeZone);
        return (
          <p
            key={offer.offerId}
            className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4"
          >
            <strong>キャンセル待ちに空きが出ました。</strong>
            {offer.salonName}　{formatLocalDate(start.date)} {start.time}から（
            {deadline.time}までお取り置き）
            <Link to={offer.href} className="ml-2 font-bold underline">
              ご案内を見て予約する
            </Link>
          </p>
        );
      })}
    </div>
  );
}
