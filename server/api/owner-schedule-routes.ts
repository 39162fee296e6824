import { createRoute, z } from "@hono/zod-openapi";
import { NotFoundError } from "../errors/domain-error";
import { ownScheduleRequests, pendingScheduleRequests } from "../owner/schedule-requests.server";
import { scheduleMonth } from "../owner/schedules.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The 勤務表 as JSON (issue 29, point 2; decision 0046): one stylist's month
 * as the availability engine reads it, the same data as
 * /owner/salons/{id}/schedules (server/owner/schedules.server.ts).
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

const query = z.object({
  staff: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "スタッフの UUID（省略時は並び順で最初の在籍スタッフ）" }),
  month: z
    .string()
    .max(20)
    .optional()
    .openapi({ description: "月（YYYY-MM、省略時はサロンの現地の今月）", example: "2026-12" }),
});

const localTime = z.string().openapi({ example: "10:00", description: "サロンの現地時刻" });

const daySchema = z
  .object({
    date: z.string().openapi({ example: "2026-12-01" }),
    day: z.number().int(),
    weekday: z.number().int().openapi({ description: "0 = 日曜日 … 6 = 土曜日" }),
    label: z.string().openapi({ example: "2026年12月1日(火)" }),
    past: z.boolean(),
    today: z.boolean(),
    holidayName: z.string().nullable().openapi({ description: "祝日の名前（営業日でも）" }),
    salonClosure: z.enum(["regular", "closure", "holiday"]).nullable().openapi({
      description: "regular: 定休日、closure: 臨時休業、holiday: 祝日休業、null: 営業",
    }),
    salonHoursChanged: z.boolean().openapi({ description: "この日だけサロンの営業時間が違う" }),
    staffKind: z.enum(["working", "weekly_off", "day_off", "changed", "extra"]).openapi({
      description:
        "working: 勤務パターンどおり、weekly_off: 毎週の休み、day_off: 休み、changed: 時間変更、extra: 臨時出勤",
    }),
    hours: z
      .array(z.object({ start: localTime, end: localTime }))
      .openapi({ description: "予約受付と同じ計算の勤務時間（サロンの営業時間の内側）" }),
    bookings: z.number().int().openapi({ description: "この日の予約（確定・完了）の件数" }),
    exceptions: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["closed", "hours", "extra"]),
        startsAt: z.string().nullable(),
        endsAt: z.string().nullable(),
        note: z.string(),
      }),
    ),
    closureId: z.string().nullable(),
    closureNote: z.string(),
  })
  .openapi("OwnerScheduleDay");

const monthSchema = z
  .object({
    salon: z.object({
      id: z.string(),
      name: z.string(),
      timeZone: z.string(),
      version: z.number().int(),
    }),
    month: z.string().openapi({ example: "2026-12" }),
    monthLabel: z.string().openapi({ example: "2026年12月" }),
    previousMonth: z.string(),
    nextMonth: z.string(),
    today: z.string(),
    staff: z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() })),
    selected: z
      .object({
        id: z.string(),
        name: z.string(),
        active: z.boolean(),
        patterns: z.array(
          z.object({
            key: z.string(),
            validFrom: z.string().nullable(),
            validUntil: z.string().nullable(),
            intervals: z.array(
              z.object({ weekday: z.number().int(), startsAt: localTime, endsAt: localTime }),
            ),
          }),
        ),
        upcomingBookings: z.number().int(),
      })
      .nullable()
      .openapi({ description: "表示中のスタッフ（スタッフがいないサロンは null）" }),
    weeks: z
      .array(z.array(daySchema.nullable()))
      .openapi({ description: "日曜日始まりの週（ほかの月の日は null）" }),
    days: z.array(daySchema),
    closedOnHolidays: z.boolean().openapi({ description: "祝日は休業する" }),
    openingHours: z.array(
      z.object({ weekday: z.number().int(), start: localTime, end: localTime }),
    ),
  })
  .openapi("OwnerScheduleMonth");

const monthRoute = createRoute({
  ...needs("schedules.manage"),
  method: "get",
  path: "/owner/salons/{id}/schedules",
  operationId: "ownerScheduleMonth",
  tags: ownerTags,
  summary: "スタッフ1人の1か月の勤務（勤務時間、定休日、臨時休業、祝日、休み、予約件数）",
  security: signedIn,
  request: { params, query },
  responses: {
    200: {
      description: "その月の勤務（時刻はサロンの現地時刻）",
      content: { "application/json": { schema: envelope(monthSchema) } },
    },
    ...authErrorResponses,
    ...errorResponses,
    400: errorResponse("月の形式が正しくありません（invalid_month, invalid_request）"),
    404: errorResponse(
      "サロンまたはスタッフが見つかりません（担当していないサロンも同じ）（not_found）",
    ),
  },
});

const requestSchema = z
  .object({
    id: z.string(),
    staffId: z.string(),
    staffName: z.string(),
    date: z.string().openapi({ example: "2026-12-01" }),
    dateLabel: z.string().openapi({ example: "2026年12月1日(火)" }),
    kind: z.enum(["closed", "hours", "extra"]).openapi({
      description: "closed: 休み、hours: 勤務時間の変更、extra: 臨時出勤",
    }),
    startsAt: z.string().nullable().openapi({ description: "サロンの現地時刻（休みは null）" }),
    endsAt: z.string().nullable(),
    note: z.string(),
    status: z.enum(["pending", "approved", "declined", "withdrawn"]).openapi({
      description: "pending: 承認待ち、approved: 承認済み、declined: 見送り、withdrawn: 取り下げ",
    }),
    decisionNote: z.string().openapi({ description: "見送りの理由（サロンのメモ）" }),
    version: z.number().int().openapi({ description: "変更のたびに増える版（楽観的排他制御）" }),
  })
  .openapi("OwnerScheduleRequest");

const pendingRequestsRoute = createRoute({
  ...needs("schedules.manage"),
  method: "get",
  path: "/owner/salons/{id}/schedule-requests",
  operationId: "ownerPendingScheduleRequests",
  tags: ownerTags,
  summary: "スタッフからの承認待ちの勤務変更の申請（日付順）",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "承認待ちの申請",
      content: { "application/json": { schema: envelope(z.array(requestSchema)) } },
    },
    ...authErrorResponses,
    ...errorResponses,
    404: errorResponse("サロンが見つかりません（担当していないサロンも同じ）（not_found）"),
  },
});

const ownRequestsRoute = createRoute({
  ...needs("schedules.request"),
  method: "get",
  path: "/owner/salons/{id}/schedules/mine/requests",
  operationId: "ownerOwnScheduleRequests",
  tags: ownerTags,
  summary: "スタイリスト本人の勤務変更の申請（新しい順、50件まで）",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "本人の申請と、その状態・サロンのメモ",
      content: { "application/json": { schema: envelope(z.array(requestSchema)) } },
    },
    ...authErrorResponses,
    ...errorResponses,
    404: errorResponse("サロンが見つからないか、スタイリストとして登録されていません（not_found）"),
  },
});

/**
 * GET /api/owner/salons/{id}/schedules?staff=&month= (schedules.manage),
 * /schedule-requests (schedules.manage) and /schedules/mine/requests (schedules.request).
 */
export function registerOwnerScheduleRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(monthRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, monthRoute[CAPABILITY]);
    const { staff, month } = c.req.valid("query");
    const view = await scheduleMonth(
      deps.db,
      access.salon.id,
      { staff: staff ?? null, month: month ?? null },
      deps.now(),
    );
    return c.json({ data: view }, 200);
  });

  // The stylists' requests (decision 0052): a manager's pending list, a stylist's own.
  app.openapi(pendingRequestsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(
      c.req.raw,
      deps,
      id,
      pendingRequestsRoute[CAPABILITY],
    );
    return c.json({ data: await pendingScheduleRequests(deps.db, access.salon.id) }, 200);
  });

  app.openapi(ownRequestsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, ownRequestsRoute[CAPABILITY]);
    if (!access.staffId) throw new NotFoundError();
    return c.json(
      { data: await ownScheduleRequests(deps.db, access.salon.id, access.staffId) },
      200,
    );
  });
}
