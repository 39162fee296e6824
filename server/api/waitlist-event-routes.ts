import { createRoute, z } from "@hono/zod-openapi";
import { liveOffersFor, waitlistVisitorKey } from "../waitlist/live-offers.server";
import { authErrorResponses, errorResponses, requireApiUser, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { openAvailabilityStream } from "./availability-stream";

/**
 * GET /api/waitlist/events (issue 30, point 4): the signed-in visitor's
 * live notice of waiting-list offers, as Server-Sent Events on the
 * live-slot hub (LISTEN/NOTIFY, every app server), under the visitor's own
 * key: the offer-making transaction notifies it (notifyWaitlistOffer).
 */
const eventsRoute = createRoute({
  method: "get",
  path: "/waitlist/events",
  operationId: "streamWaitlistOffers",
  tags: ["キャンセル待ち"],
  summary: "キャンセル待ちのご案内のライブ通知（Server-Sent Events）",
  description:
    "text/event-stream。接続直後と、ご本人へのご案内（空きの仮押さえ）が作られるたびに event: waitlist（data は { changedDates, data }。data は有効なご案内の一覧 { offerId, href, salonName, startsAt, expiresAt, timeZone }[]、期限の早い順）を送ります。どのアプリサーバーで作られたご案内も届きます。25秒ごとにコメント行、再接続では最新の一覧を送り直します。",
  security: signedIn,
  responses: {
    200: {
      description: "イベントストリーム",
      content: { "text/event-stream": { schema: z.string() } },
    },
    ...authErrorResponses,
    ...errorResponses,
  },
});

export function registerWaitlistEventRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(eventsRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const response = await openAvailabilityStream(c, {
      slotEvents: deps.slotEvents,
      salonId: waitlistVisitorKey(user.id),
      // Every offer's date counts: the notice is about the visitor, not a range of days.
      from: "2000-01-01",
      to: "2099-12-31",
      snapshot: () => liveOffersFor(deps.db, user.id, deps.now()),
      heartbeatMs: deps.heartbeatMs,
      event: "waitlist",
    });
    return response as never;
  });
}
