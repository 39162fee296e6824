import { createRoute, z } from "@hono/zod-openapi";
import { minutesOf } from "../../common/local-time";
import { WAITLIST_LIVE_ENTRIES_MAX } from "../../common/waitlist";
import { clientIp } from "../accounts/request-info";
import { waitlistOfferStatuses, waitlistStatuses } from "../db/schema";
import { publishedSalonRef } from "../salons/salon-ref";
import {
  declineOffer,
  getOfferForUser,
  joinWaitlist,
  leaveWaitlist,
  listWaitlistForUser,
} from "../waitlist/waitlist.server";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  requireApiUser,
  signedIn,
  signedInOnly,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { staffIdForRef } from "./booking-api.server";
import { envelope, MAX_API_MENUS, uuid } from "./schemas";

/**
 * The visitor's waiting list as JSON (issue 30, point 4; decision 0055):
 * join, list, leave, and an offer's read and decline. Taking an offer is
 * POST /api/bookings with the offer's holdId, as for any hold.
 */

const tags = ["キャンセル待ち"];
const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const timeOfDay = (label: string) =>
  z
    .string({ error: `${label}は HH:MM の形式で指定してください（例：14:00）。` })
    .regex(TIME, `${label}は HH:MM の形式で指定してください（例：14:00）。`)
    .transform((value) => (value === "24:00" ? 1440 : minutesOf(value)));

/** Minutes after midnight as "HH:MM" (1440 as "24:00"). */
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

export const waitlistJoinSchema = z
  .object(
    {
      salonId: z
        .string({ error: "サロンを指定してください。" })
        .max(200, "サロンIDの形式が正しくありません。")
        .openapi({ description: "サロンのスラッグまたは UUID" }),
      menuIds: z
        .array(uuid("メニューID"), { error: "メニューを1つ以上指定してください。" })
        .min(1, "メニューを1つ以上指定してください。")
        .max(MAX_API_MENUS, `メニューは${MAX_API_MENUS}つまで指定できます。`)
        .refine((ids) => new Set(ids).size === ids.length, "同じメニューが2回指定されています。"),
      staffId: z
        .string({ error: "スタイリストIDの形式が正しくありません。" })
        .max(200, "スタイリストIDの形式が正しくありません。")
        .nullable()
        .optional()
        .openapi({ description: "スタイリストのスラッグまたは UUID。null または省略で指名なし" }),
      couponId: uuid("クーポンID").nullable().optional(),
      date: z.iso
        .date({ error: "日付は YYYY-MM-DD の形式で指定してください（例：2026-12-01）。" })
        .openapi({ description: "サロンの現地日付", example: "2026-12-03" }),
      windowStart: timeOfDay("希望時間帯の始まり").openapi({
        type: "string",
        example: "14:00",
        description: "この時刻以降に始まる空きを希望（サロンの現地時刻）",
      }),
      windowEnd: timeOfDay("希望時間帯の終わり").openapi({
        type: "string",
        example: "17:00",
        description: "この時刻より前に始まる空きを希望（24:00 まで）",
      }),
    },
    { error: "キャンセル待ちの内容を JSON のオブジェクトで送ってください。" },
  )
  .openapi("WaitlistJoinRequest");

const declineSchema = z.object({}).openapi("WaitlistDeclineRequest");

const entryParams = z.object({
  entryId: uuid("キャンセル待ちID").openapi({
    param: { name: "entryId", in: "path" },
    description: "キャンセル待ちの UUID",
  }),
});
const offerParams = z.object({
  offerId: uuid("ご案内ID").openapi({
    param: { name: "offerId", in: "path" },
    description: "空きのご案内の UUID（メールのリンクにあるもの）",
  }),
});

const openOfferSchema = z
  .object({
    id: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    expiresAt: z.string().openapi({ description: "この時刻までに予約を確定しないと次の方へ" }),
    holdId: z.string().nullable().openapi({ description: "POST /api/bookings に渡す仮押さえ" }),
    staffId: z.string(),
  })
  .openapi("WaitlistOpenOffer");

export const waitlistEntrySchema = z
  .object({
    id: z.string(),
    status: z.enum(waitlistStatuses),
    statusLabel: z.string().openapi({ example: "キャンセル待ち中" }),
    date: z.string(),
    windowStart: z.string().openapi({ example: "14:00" }),
    windowEnd: z.string().openapi({ example: "17:00" }),
    salon: z.object({ id: z.string(), slug: z.string(), name: z.string(), timeZone: z.string() }),
    menus: z.array(z.object({ id: z.string(), name: z.string() })),
    staff: z.object({ id: z.string(), name: z.string() }).nullable(),
    staffLabel: z.string().openapi({ description: "スタイリスト名、または「指名なし」" }),
    createdAt: z.string(),
    bookingId: z.string().nullable(),
    offer: openOfferSchema.nullable(),
    live: z.boolean().openapi({ description: "キャンセル待ち中・ご案内中（取り消せる）" }),
  })
  .openapi("WaitlistEntry");

const offerSchema = z
  .object({
    id: z.string(),
    status: z.enum(waitlistOfferStatuses),
    statusLabel: z.string(),
    bookable: z
      .boolean()
      .openapi({ description: "今予約を確定できる（ご案内中で期限前、仮押さえあり）" }),
    holdId: z.string().nullable(),
    entryId: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    expiresAt: z.string(),
    salon: z.object({ id: z.string(), slug: z.string(), name: z.string(), timeZone: z.string() }),
    staff: z.object({ id: z.string(), name: z.string() }),
    staffRequested: z.boolean(),
    menus: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        price: z.number().int(),
        durationMinutes: z.number().int(),
      }),
    ),
    totalPrice: z.number().int().nullable(),
  })
  .openapi("WaitlistOffer");

/** An entry with its window as "HH:MM", as the API shows it (the owner's list too). */
export function waitlistEntryBody<E extends { windowStart: number; windowEnd: number }>(
  entry: E,
): Omit<E, "windowStart" | "windowEnd"> & { windowStart: string; windowEnd: string } {
  return { ...entry, windowStart: hhmm(entry.windowStart), windowEnd: hhmm(entry.windowEnd) };
}

const listRoute = createRoute({
  method: "get",
  path: "/waitlist",
  operationId: "listWaitlist",
  tags,
  summary: "自分のキャンセル待ち（新しい順、終了したものも）",
  security: signedIn,
  responses: {
    200: { description: "キャンセル待ち", ...json(envelope(z.array(waitlistEntrySchema))) },
    ...authErrorResponses,
    ...errorResponses,
  },
});

const joinRoute = createRoute({
  method: "post",
  path: "/waitlist",
  operationId: "joinWaitlist",
  tags,
  summary: "キャンセル待ちに登録",
  description: `満席の日のご希望（メニュー、スタイリストまたは指名なし、日付、開始時刻の時間帯）で順番待ちに入ります。空きが出ると先に登録した方から順に、その時間を仮押さえしてメールでご案内します（22:00〜8:00 は朝まで待ちます）。同時に${WAITLIST_LIVE_ENTRIES_MAX}件まで、同じサロン・日付は1件まで。今すぐ予約できる時間があるときは 409（waitlist_time_free）。`,
  security: signedIn,
  request: { body: { required: true, ...json(waitlistJoinSchema) } },
  responses: {
    201: { description: "登録したキャンセル待ち", ...json(envelope(waitlistEntrySchema)) },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    409: errorResponse(
      "今すぐ予約できる（waitlist_time_free）、同じ日に登録済み（waitlist_duplicate）、件数の上限（waitlist_too_many）",
    ),
    429: errorResponse("操作が多すぎます（too_many_requests）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const leaveRoute = createRoute({
  method: "delete",
  path: "/waitlist/{entryId}",
  operationId: "leaveWaitlist",
  tags,
  summary: "キャンセル待ちを取り消す（ご案内中の仮押さえは次の方へ）",
  security: signedIn,
  request: { params: entryParams },
  responses: {
    200: { description: "取り消したキャンセル待ち", ...json(envelope(waitlistEntrySchema)) },
    404: errorResponse("キャンセル待ちが見つかりません（waitlist_not_found）"),
    409: errorResponse("すでに終了しています（waitlist_not_live）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const offerRoute = createRoute({
  method: "get",
  path: "/waitlist/offers/{offerId}",
  operationId: "getWaitlistOffer",
  tags,
  summary: "空きのご案内（確保したお時間と期限）",
  description:
    "bookable のとき、holdId を POST /api/bookings に渡すと予約が確定します。期限を過ぎると次の方へご案内します。",
  security: signedIn,
  request: { params: offerParams },
  responses: {
    200: { description: "ご案内", ...json(envelope(offerSchema)) },
    404: errorResponse("ご案内が見つかりません（waitlist_offer_not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const declineRoute = createRoute({
  method: "post",
  path: "/waitlist/offers/{offerId}/decline",
  operationId: "declineWaitlistOffer",
  tags,
  summary: "空きのご案内を辞退する（次の方へ。キャンセル待ちも終了）",
  security: signedIn,
  request: {
    params: offerParams,
    // Empty; JSON, so that another site's form cannot post it (server/http/cross-site.ts).
    body: { required: false, ...json(declineSchema) },
  },
  responses: {
    200: { description: "辞退後のご案内", ...json(envelope(offerSchema)) },
    404: errorResponse("ご案内が見つかりません（waitlist_offer_not_found）"),
    410: errorResponse("受付を終了したご案内（waitlist_offer_closed）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET/POST /api/waitlist, DELETE /api/waitlist/{entryId}, and the offers. */
export function registerWaitlistRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  const { db, now } = deps;
  for (const path of ["/waitlist", "/waitlist/*"]) app.use(path, signedInOnly(deps));

  app.openapi(listRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const entries = await listWaitlistForUser(db, user.id, now());
    return c.json({ data: entries.map(waitlistEntryBody) }, 200);
  });

  app.openapi(joinRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const body = c.req.valid("json");
    const salon = await publishedSalonRef(db, body.salonId);
    const entry = await joinWaitlist(db, {
      userId: user.id,
      salonId: salon.id,
      menuIds: body.menuIds,
      staffId: await staffIdForRef(db, salon.id, body.staffId ?? null),
      couponId: body.couponId ?? null,
      date: body.date,
      windowStart: body.windowStart,
      windowEnd: body.windowEnd,
      now: now(),
      limits: deps.limits,
      ip: clientIp(c.req.raw),
    });
    const listed = (await listWaitlistForUser(db, user.id, now())).find((e) => e.id === entry.id);
    if (!listed) throw new Error("joined entry not listed");
    return c.json({ data: waitlistEntryBody(listed) }, 201);
  });

  app.openapi(leaveRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { entryId } = c.req.valid("param");
    await leaveWaitlist(db, { userId: user.id, entryId, now: now() });
    const listed = (await listWaitlistForUser(db, user.id, now())).find(
      (e) => e.id === entryId.toLowerCase(),
    );
    if (!listed) throw new Error("left entry not listed");
    return c.json({ data: waitlistEntryBody(listed) }, 200);
  });

  app.openapi(offerRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { offerId } = c.req.valid("param");
    return c.json(
      { data: await getOfferForUser(db, { userId: user.id, offerId, now: now() }) },
      200,
    );
  });

  app.openapi(declineRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { offerId } = c.req.valid("param");
    await declineOffer(db, { userId: user.id, offerId, now: now() });
    return c.json(
      { data: await getOfferForUser(db, { userId: user.id, offerId, now: now() }) },
      200,
    );
  });
}
