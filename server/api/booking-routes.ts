import { createRoute, z } from "@hono/zod-openapi";
import { type AccountProfile, findProfile } from "../accounts/profile";
import { clientIp } from "../accounts/request-info";
import {
  type Booking,
  cancelBooking,
  confirmBookingOnce,
  getBookingForUser,
  holdSlot,
  listBookingsForUser,
} from "../bookings/booking.server";
import { rescheduleBooking } from "../bookings/reschedule.server";
import { DomainError } from "../errors/domain-error";
import { publishedSalonRef } from "../salons/salon-ref";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  requireApiUser,
  signedIn,
  signedInOnly,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { openAvailabilityStream } from "./availability-stream";
import { availabilityFor, resolveAvailabilityQuery, staffIdForRef } from "./booking-api.server";
import {
  availabilityQuery,
  availabilitySchema,
  bookingListSchema,
  bookingParams,
  bookingRequestSchema,
  bookingSchema,
  cancelRequestSchema,
  envelope,
  holdRequestSchema,
  holdSchema,
  idempotencyHeaders,
  MAX_API_MENUS,
  salonParams,
} from "./schemas";

const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});

const availabilityRoute = createRoute({
  method: "get",
  path: "/salons/{id}/availability",
  operationId: "getAvailability",
  tags: ["空き状況"],
  summary: "空き時間（日ごと、最大31日）",
  description:
    "選んだメニューの合計時間で始められる時刻を、サロンの現地日付ごとに返します。staff を省略すると指名なし（空いているスタイリストのいずれか）。",
  request: { params: salonParams, query: availabilityQuery },
  responses: {
    200: { description: "空き状況", ...json(envelope(availabilitySchema)) },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    ...errorResponses,
  },
});

const streamRoute = createRoute({
  method: "get",
  path: "/salons/{id}/availability/stream",
  operationId: "streamAvailability",
  tags: ["空き状況"],
  summary: "空き状況のライブ配信（Server-Sent Events）",
  description:
    "text/event-stream。接続直後と、範囲内の日付の空きが変わるたびに event: availability（data は { changedDates, data }。data は GET …/availability の data と同じ、changedDates は変わった日付で、最初の1件は null）を送ります。どのアプリサーバーで起きた変更も届きます（PostgreSQL LISTEN/NOTIFY）。25秒ごとにコメント行、retry: で再接続間隔を指示し、再接続（Last-Event-ID 付き）では最新の全体を送り直します。",
  request: { params: salonParams, query: availabilityQuery },
  responses: {
    200: {
      description: "イベントストリーム",
      content: { "text/event-stream": { schema: z.string() } },
    },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    ...errorResponses,
  },
});

const holdRoute = createRoute({
  method: "post",
  path: "/holds",
  operationId: "createHold",
  tags: ["予約"],
  summary: "時間を仮押さえ（10分間）",
  description:
    "選んだ時刻を確保します。確保中はほかの人には空きとして見えません。POST /api/bookings で確定してください。アカウントと IP アドレスごとに回数制限があります（429）。同時に持てる仮押さえはアカウントごとに上限があり（既定 3 件、サロンをまたいで数えます）、超えると 429（too_many_holds）。同じサロンで時刻を選び直すと、前の仮押さえは解放されます。使えないクーポンは 400（coupon_not_applicable）。",
  security: signedIn,
  request: { body: { required: true, ...json(holdRequestSchema) } },
  responses: {
    201: { description: "仮押さえ", ...json(envelope(holdSchema)) },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    409: errorResponse(
      "その時間は埋まったか、受け付けていません（slot_taken / slot_unavailable）。または、このサロンでお持ちの予約（来店前の確定済みと仮押さえ）がサロンの決めた上限に達しています（too_many_bookings、limit 付き）",
    ),
    429: errorResponse(
      "操作が多すぎます（too_many_requests）、または仮押さえ中の枠が上限に達しています（too_many_holds、limit 付き）。どちらも Retry-After ヘッダー付き",
    ),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const bookRoute = createRoute({
  method: "post",
  path: "/bookings",
  operationId: "createBooking",
  tags: ["予約"],
  summary: "仮押さえを予約として確定",
  description:
    "Idempotency-Key ヘッダーを付けると、同じキーでの再送は新しい予約を作らずに同じ予約を 200 で返します。キーはアカウントごとです（ほかの人が同じキーを使っても影響しません）。同じキーを別の仮押さえに使うと 422（idempotency_key_reused）です。予約の確定にはメールアドレスの確認が必要です（未確認は 403、仮押さえは誰でもできます）。",
  security: signedIn,
  request: {
    headers: idempotencyHeaders,
    body: { required: true, ...json(bookingRequestSchema) },
  },
  responses: {
    200: { description: "同じ Idempotency-Key で確定済みの予約", ...json(envelope(bookingSchema)) },
    201: { description: "確定した予約", ...json(envelope(bookingSchema)) },
    403: errorResponse(
      "メールアドレスが未確認です（email_not_verified）。確認メールは POST /api/auth/send-verification-email で再送できます。仮押さえはそのまま残ります",
    ),
    409: errorResponse(
      "このサロンでお持ちの予約（来店前の確定済みと、ほかの仮押さえ）がサロンの決めた上限に達しています（too_many_bookings、limit 付き）。または、このサロンはご予約時のオンライン決済が必要で、API では確定できません（payment_required、予約ページでお手続きください）。仮押さえはそのまま残ります",
    ),
    410: errorResponse("仮押さえの期限切れ、または見つかりません（hold_expired）"),
    422: errorResponse(
      "この Idempotency-Key はすでに別の仮押さえの確定に使われています（idempotency_key_reused）",
    ),
    429: errorResponse("操作が多すぎます（too_many_requests、Retry-After ヘッダー付き）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/bookings",
  operationId: "listBookings",
  tags: ["予約"],
  summary: "自分の予約（今後の予約は近い順、過去・キャンセル済みは新しい順）",
  security: signedIn,
  responses: {
    200: { description: "予約一覧", ...json(envelope(bookingListSchema)) },
    ...authErrorResponses,
    ...errorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/bookings/{id}",
  operationId: "getBooking",
  tags: ["予約"],
  summary: "自分の予約1件",
  security: signedIn,
  request: { params: bookingParams },
  responses: {
    200: { description: "予約", ...json(envelope(bookingSchema)) },
    404: errorResponse("予約が見つかりません（他人の予約も同じく booking_not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const cancelRoute = createRoute({
  method: "post",
  path: "/bookings/{id}/cancel",
  operationId: "cancelBooking",
  tags: ["予約"],
  summary: "予約をキャンセル（キャンセル期限まで）",
  description:
    "キャンセルした時間はすぐにほかの人が予約できるようになります。本文は JSON（{} でも可）。",
  security: signedIn,
  request: {
    params: bookingParams,
    body: { required: false, ...json(cancelRequestSchema) },
  },
  responses: {
    200: { description: "キャンセル後の予約", ...json(envelope(bookingSchema)) },
    404: errorResponse("予約が見つかりません（booking_not_found）"),
    409: errorResponse("キャンセルできません（booking_not_cancellable / cancellation_closed）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const rescheduleRequestSchema = z
  .object({
    start: holdRequestSchema.shape.start,
    staffId: holdRequestSchema.shape.staffId.openapi({
      description:
        "スタイリストのスラッグまたは UUID（指名）。null で指名なし。省略すると今のまま（指名ならその人、指名なしなら指名なし）",
    }),
    menuIds: holdRequestSchema.shape.menuIds.optional().openapi({
      description: `メニューの UUID（${MAX_API_MENUS}つまで）。省略すると今のメニュー`,
    }),
    version: z
      .number({ error: "version は整数で指定してください。" })
      .int("version は整数で指定してください。")
      .min(0, "version は0以上の整数で指定してください。")
      .optional()
      .openapi({
        description: "見ている予約の version。その後に変更されていれば 409（booking_changed）",
      }),
  })
  .openapi("RescheduleRequest");

const rescheduleRoute = createRoute({
  method: "post",
  path: "/bookings/{id}/reschedule",
  operationId: "rescheduleBooking",
  tags: ["予約"],
  summary: "予約を変更（日時・スタイリスト・メニュー、キャンセル期限まで）",
  description:
    "確定済みの予約を、同じ予約番号のまま別の日時・スタイリスト・メニューに変更します。前の時間の解放と新しい時間の確保は1つのトランザクションで行われ、予約が2件になったり無くなったりすることはありません。料金と所要時間はメニューから計算し直し、クーポンは新しい内容にも使える場合だけ残ります（使えなければ couponDropped: true、通常料金）。すでに同じ内容なら何もせず changed: false を返します（再送しても安全）。お客様には更新された .ics 付きのメール、サロンには通知が届きます。",
  security: signedIn,
  request: {
    params: bookingParams,
    body: { required: true, ...json(rescheduleRequestSchema) },
  },
  responses: {
    200: {
      description: "変更後の予約",
      ...json(
        z.object({
          data: bookingSchema,
          changed: z.boolean(),
          couponDropped: z.boolean(),
        }),
      ),
    },
    404: errorResponse("予約が見つかりません（他人の予約も同じく booking_not_found）"),
    409: errorResponse(
      "その時間は埋まったか受け付けていない（slot_taken / slot_unavailable）、キャンセル期限を過ぎた（cancellation_closed）、キャンセル済み・終了済み（booking_not_changeable）、または見ている version の後に変更された（booking_changed）。予約は変わりません",
    ),
    429: errorResponse("操作が多すぎます（too_many_requests、Retry-After ヘッダー付き）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

class ContactRequiredError extends DomainError {
  constructor() {
    super("contact_required", "連絡先（contact）を指定するか、会員情報を登録してください。", 400);
  }
}

function holdBody(row: Booking) {
  return {
    id: row.id,
    salonId: row.salonId,
    staffId: row.staffId,
    staffRequested: row.staffRequested,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    totalPrice: row.totalPrice,
    nominationFee: row.nominationFee,
    expiresAt: (row.holdExpiresAt ?? row.startsAt).toISOString(),
  };
}

/** Availability, its live stream, holds and bookings (issue 15, points 8 and 9). */
export function registerBookingRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  const { db } = deps;
  const { now } = deps;
  for (const path of ["/holds", "/bookings", "/bookings/*"]) app.use(path, signedInOnly(deps));
  // The availability JSON and its live stream read the same query.
  const resolveQuery = (salon: string, query: z.infer<typeof availabilityQuery>) =>
    resolveAvailabilityQuery(db, {
      salon,
      menuIds: query.menus,
      staff: query.staff ?? null,
      from: query.from,
      to: query.to,
    });

  app.openapi(availabilityRoute, async (c) => {
    const query = await resolveQuery(c.req.valid("param").id, c.req.valid("query"));
    return c.json({ data: await availabilityFor(db, query, now()) }, 200);
  });

  app.openapi(streamRoute, async (c) => {
    const query = await resolveQuery(c.req.valid("param").id, c.req.valid("query"));
    const response = await openAvailabilityStream(c, {
      slotEvents: deps.slotEvents,
      salonId: query.salonId,
      from: query.from,
      to: query.to,
      snapshot: () => availabilityFor(db, query, now()),
      heartbeatMs: deps.heartbeatMs,
    });
    return response as never;
  });

  app.openapi(holdRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const body = c.req.valid("json");
    const salon = await publishedSalonRef(db, body.salonId);
    const hold = await holdSlot(db, {
      salonId: salon.id,
      menuIds: body.menuIds,
      staffId: await staffIdForRef(db, salon.id, body.staffId ?? null),
      start: new Date(body.start),
      couponId: body.couponId ?? null,
      userId: user.id,
      salonTimeZone: salon.timeZone,
      now: now(),
      limits: deps.limits,
      ip: clientIp(c.req.raw),
    });
    return c.json({ data: holdBody(hold) }, 201);
  });

  app.openapi(bookRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const body = c.req.valid("json");
    const idempotencyKey = c.req.valid("header")["idempotency-key"] ?? null;
    const customer = body.contact ?? contactFromProfile(user.email, await findProfile(db, user.id));
    const { booking: confirmed, replayed } = await confirmBookingOnce(db, {
      holdId: body.holdId,
      userId: user.id,
      customer,
      notes: body.notes,
      idempotencyKey,
      policyConsent: { agreed: body.policyConsent, digest: null },
      studentDeclared: body.student,
      now: now(),
      limits: deps.limits,
      ip: clientIp(c.req.raw),
    });
    const booking = await getBookingForUser(db, { bookingId: confirmed.id, userId: user.id });
    return replayed ? c.json({ data: booking }, 200) : c.json({ data: booking }, 201);
  });

  app.openapi(listRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    return c.json({ data: await listBookingsForUser(db, { userId: user.id, now: now() }) }, 200);
  });

  app.openapi(getRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { id } = c.req.valid("param");
    return c.json({ data: await getBookingForUser(db, { bookingId: id, userId: user.id }) }, 200);
  });

  app.openapi(cancelRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { id } = c.req.valid("param");
    const { reason } = cancelRequestSchema.parse(c.req.valid("json") ?? {});
    await cancelBooking(db, {
      bookingId: id,
      userId: user.id,
      reason,
      now: now(),
      money: { provider: deps.payments ?? null, publicUrl: deps.config.PUBLIC_URL, log: deps.log },
    });
    return c.json({ data: await getBookingForUser(db, { bookingId: id, userId: user.id }) }, 200);
  });

  app.openapi(rescheduleRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const current = await getBookingForUser(db, { bookingId: id, userId: user.id });
    const result = await rescheduleBooking(db, {
      bookingId: current.id,
      userId: user.id,
      start: new Date(body.start),
      staffId:
        body.staffId === undefined
          ? undefined
          : await staffIdForRef(db, current.salon.id, body.staffId),
      menuIds: body.menuIds,
      version: body.version,
      now: now(),
      limits: deps.limits,
      ip: clientIp(c.req.raw),
    });
    const booking = await getBookingForUser(db, { bookingId: id, userId: user.id });
    return c.json(
      { data: booking, changed: result.changed, couponDropped: result.couponDropped },
      200,
    );
  });
}

function contactFromProfile(email: string, profile: AccountProfile | null) {
  if (!profile) throw new ContactRequiredError();
  return { name: profile.name, kana: profile.nameKana, phone: profile.phone, email };
}
