import { createRoute, z } from "@hono/zod-openapi";
import { toLocal } from "../../common/local-time";
import { bookingSources, bookingStatuses } from "../db/schema";
import { viewScope } from "../owner/scope.server";
import { todayView } from "../owner/today.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { openAvailabilityStream } from "./availability-stream";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The back office's 今日 as JSON (issue 28, points 2 and 7; decision 0043):
 * the same view as /owner/salons/{id} (server/owner/today.server.ts), for a
 * salon's own tools, e.g. a reception tablet's "who comes next".
 */

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
const ownerTags = ["サロン管理"];

const params = z.object({
  id: uuid("サロンID").openapi({
    param: { name: "id", in: "path" },
    description: "サロンの UUID",
    example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

const localTime = z.string().openapi({ example: "10:30", description: "サロンの現地時刻" });

const bookingSchema = z
  .object({
    id: z.string(),
    bookingNumber: z.string().openapi({ example: "7K3M-Q9TX" }),
    startsAt: z.string().openapi({ description: "ISO 8601", example: "2026-12-01T01:30:00.000Z" }),
    endsAt: z.string(),
    startTime: localTime,
    endTime: localTime,
    customerName: z.string(),
    customerKana: z.string(),
    menus: z.array(z.string()).openapi({ description: "メニュー名（予約時の順）" }),
    staffId: z.string(),
    staffName: z.string(),
    staffRequested: z.boolean().openapi({ description: "true: 指名、false: 指名なし" }),
    status: z.enum(bookingStatuses),
    source: z.enum(bookingSources),
    arrived: z.boolean().openapi({ description: "来店済みとして記録済み" }),
    totalPrice: z.number().int().openapi({ description: "円（税込）" }),
    pending: z
      .boolean()
      .openapi({ description: "承認制のサロンのネット予約で、サロンの承認待ち（仮予約）" }),
    statusLabel: z.string().openapi({
      example: "仮予約（承認待ち）",
      description:
        "管理画面と同じ状態の呼び方（予約確定・仮予約（承認待ち）・来店済み・施術完了…）",
    }),
  })
  .openapi("OwnerTodayBooking");

const pendingSchema = z
  .object({
    id: z.string(),
    bookingNumber: z.string(),
    startsAt: z.string().openapi({ description: "ISO 8601" }),
    startLabel: z.string().openapi({ example: "12月3日(木) 14:00" }),
    madeAtLabel: z.string().openapi({ example: "12月1日(火) 10:05", description: "予約した日時" }),
    customerName: z.string(),
    customerKana: z.string(),
    staffName: z.string(),
  })
  .openapi("OwnerPendingApproval");

const noticeSchema = z
  .object({
    id: z.string(),
    kind: z
      .enum(["created", "cancelled", "moved"])
      .openapi({ description: "お客様による新規予約・キャンセル・予約変更" }),
    at: z.string().openapi({ description: "ISO 8601" }),
    atLabel: z.string().openapi({ example: "12月1日(火) 10:05" }),
    bookingId: z.string(),
    customerName: z.string(),
    customerKana: z.string(),
    bookingStartLabel: z.string().openapi({ example: "12月3日(木) 14:00" }),
    status: z.enum(bookingStatuses).openapi({ description: "予約の現在の状態" }),
    statusLabel: z.string().openapi({
      example: "仮予約（承認待ち）",
      description:
        "管理画面と同じ状態の呼び方（予約確定・仮予約（承認待ち）・来店済み・施術完了…）",
    }),
  })
  .openapi("OwnerNotice");

const todaySchema = z
  .object({
    salon: z.object({ id: z.string(), name: z.string(), timeZone: z.string() }),
    date: z.string().openapi({ example: "2026-12-01", description: "サロンの現地日付" }),
    dateLabel: z.string().openapi({ example: "2026年12月1日(火)" }),
    nowTime: localTime,
    upcoming: z.array(bookingSchema).openapi({ description: "これからの予約（次の予約が先頭）" }),
    arrivalsDue: z
      .array(bookingSchema)
      .openapi({ description: "開始済みまたは30分以内に開始し、来店記録がまだの予約" }),
    counts: z.object({
      booked: z.number().int().openapi({ description: "予約確定" }),
      completed: z.number().int(),
      cancelled: z.number().int().openapi({ description: "お客様・サロンによるキャンセル" }),
      noShow: z.number().int(),
    }),
    capacity: z
      .array(
        z.object({
          staffId: z.string(),
          staffName: z.string(),
          workingMinutesLeft: z.number().int(),
          bookedMinutesLeft: z.number().int(),
          freeMinutesLeft: z.number().int(),
        }),
      )
      .nullable()
      .openapi({ description: "スタッフ別の今日の残り時間（分）。非公開のサロンは null" }),
    pendingApprovals: z.array(pendingSchema).openapi({
      description:
        "要確認の先頭: 承認待ちの仮予約（終了前のもの、開始の早い順、最大50件）。POST …/bookings/{bookingId}/approve または /refuse で答えます",
    }),
    attention: z
      .array(noticeSchema)
      .openapi({ description: "要確認: 1時間以内の新規予約、24時間以内のキャンセル・予約変更" }),
    notices: z
      .array(noticeSchema)
      .openapi({ description: "お知らせ: 過去7日間（新しい順、最大20件）" }),
  })
  .openapi("OwnerToday");

const todayRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/today",
  operationId: "ownerToday",
  tags: ownerTags,
  summary: "サロンの今日（これからの予約、来店予定、件数、スタッフ別の空き、お知らせ）",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "今日の状況（日時はサロンの現地時刻）",
      content: { "application/json": { schema: envelope(todaySchema) } },
    },
    404: errorResponse("サロンが見つかりません（担当していないサロンも同じ）（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const streamRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/today/stream",
  operationId: "streamOwnerToday",
  tags: ownerTags,
  summary: "今日のライブ更新（Server-Sent Events）",
  description:
    "text/event-stream。接続直後と、サロンの予約・仮押さえ・ブロックが変わるたびに（どの日付の変更でも。要確認はすべての日の新規予約・キャンセル・予約変更を載せるため）event: today（data は { changedDates, data }。changedDates は変わった日付で、最初の1件と、変更を取りこぼした可能性があるときは null。data は { date }: 接続したときのサロンの今日）を送ります。どのアプリサーバーでの変更も届きます（PostgreSQL LISTEN/NOTIFY）。受け取ったら GET …/today を読み直してください。25秒ごとにコメント行、retry: で再接続間隔を指示します。",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "イベントストリーム",
      content: { "text/event-stream": { schema: z.string() } },
    },
    404: errorResponse("サロンが見つかりません（担当していないサロンも同じ）（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET /api/owner/salons/{id}/today and its live stream. */
export function registerOwnerTodayRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(todayRoute, async (c) => {
    const access = await requireSalonAccessApi(
      c.req.raw,
      deps,
      c.req.valid("param").id,
      todayRoute[CAPABILITY],
    );
    const view = await todayView(deps.db, access.salon, deps.now(), viewScope(access));
    return c.json({ data: view }, 200);
  });

  // 要確認 lists the customers' changes to bookings of any day (issue 38,
  // point 6): unlike the ledger's, this stream has no date range.
  app.openapi(streamRoute, async (c) => {
    const access = await requireSalonAccessApi(
      c.req.raw,
      deps,
      c.req.valid("param").id,
      streamRoute[CAPABILITY],
    );
    const date = toLocal(deps.now(), access.salon.timeZone).date;
    const response = await openAvailabilityStream(c, {
      slotEvents: deps.slotEvents,
      salonId: access.salon.id,
      event: "today",
      snapshot: async () => ({ date }),
      heartbeatMs: deps.heartbeatMs,
    });
    return response as never;
  });
}
