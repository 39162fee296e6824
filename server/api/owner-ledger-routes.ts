import { createRoute, z } from "@hono/zod-openapi";
import { addDays, isLocalDate, toLocal } from "../../common/local-time";
import { bookingKinds, bookingSources, bookingStatuses } from "../db/schema";
import { BadRequestError } from "../errors/domain-error";
import { buildLedger, ledgerDate } from "../owner/ledger.server";
import { viewScope } from "../owner/scope.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { openAvailabilityStream } from "./availability-stream";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The salon's ledger (予約台帳) as JSON and its live stream (issue 28,
 * point 3; decision 0038): the same read model as /owner/salons/{id}/bookings
 * (server/owner/ledger.server.ts), and an SSE stream on the live-slot
 * channel that tells an open ledger when a date it shows changed.
 */

/** The longest range one stream watches (a week view, with room to spare). */
export const MAX_LEDGER_STREAM_DAYS = 31;

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
const ownerTags = ["サロン管理"];

const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});

const params = z.object({
  id: uuid("サロンID").openapi({
    param: { name: "id", in: "path" },
    description: "サロンの UUID",
    example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

const dateParam = (description: string) =>
  z
    .string({ error: "日付は YYYY-MM-DD の形式で指定してください。" })
    .max(40, "日付は YYYY-MM-DD の形式で指定してください。")
    .optional()
    .openapi({ description, example: "2026-12-01" });

const ledgerQuery = z.object({
  date: dateParam("表示する日（YYYY-MM-DD、サロンの現地日付）。省略すると今日"),
  view: z
    .enum(["day", "week"], { error: "view は day または week を指定してください。" })
    .optional()
    .openapi({ description: "day（既定）: 1日をスタイリストごとに。week: その週（月〜日）の概要" }),
});

const streamQuery = z.object({
  from: dateParam("監視する最初の日（YYYY-MM-DD）。省略すると今日"),
  to: dateParam(
    `監視する最後の日（YYYY-MM-DD、${MAX_LEDGER_STREAM_DAYS}日分まで）。省略すると from と同じ日`,
  ),
});

const localTime = z.string().openapi({ example: "10:30" });
const spanFields = {
  startMinutes: z.number().int().openapi({ description: "その日の0時からの分" }),
  endMinutes: z.number().int(),
  startTime: localTime,
  endTime: localTime,
};
const spanSchema = z.object(spanFields).openapi("LedgerSpan");
const closureSchema = z
  .object({ reason: z.enum(["regular", "closure", "holiday"]), label: z.string() })
  .nullable()
  .openapi({
    description: "定休日（regular）、休業日（closure）、祝日休業（holiday）。営業日は null",
  });
const statusFields = {
  id: z.string(),
  kind: z.enum(bookingKinds).openapi({ description: "booking: 予約、block: ブロック（休憩など）" }),
  status: z.enum(bookingStatuses),
  statusLabel: z.string().openapi({
    example: "予約確定",
    description:
      "管理画面の呼び方（common/status-labels.ts）: 予約確定 / 仮予約（承認待ち） / 来店済み / 施術完了 / お客様キャンセル / サロンキャンセル / 無断キャンセル / 仮押さえ / ブロック中",
  }),
};

const entrySchema = z
  .object({
    ...spanFields,
    ...statusFields,
    staffId: z.string(),
    startsAt: z.string().openapi({ format: "date-time" }),
    endsAt: z.string().openapi({ format: "date-time" }),
    date: z.string(),
    customerName: z.string(),
    customerKana: z.string(),
    menus: z.array(z.string()),
    totalPrice: z.number().int(),
    staffRequested: z.boolean().openapi({ description: "true: 指名、false: 指名なし" }),
    source: z.enum(bookingSources),
    label: z.string().openapi({ description: "ブロックの名前（休憩、打ち合わせ…）" }),
    holdExpiresAt: z.string().nullable(),
    arrived: z.boolean(),
    pending: z.boolean().openapi({
      description:
        "承認制のサロンのネット予約で、サロンの承認待ち（仮予約）。statusLabel は「仮予約（承認待ち）」",
    }),
  })
  .openapi("LedgerEntry");

const staffSchema = z.object({ id: z.string(), name: z.string() });

const daySchema = z
  .object({
    view: z.literal("day"),
    salonId: z.string(),
    date: z.string(),
    weekday: z.number().int(),
    today: z.string(),
    holiday: z.string().nullable().openapi({ description: "祝日の名前" }),
    closed: closureSchema,
    scheduleKnown: z.boolean(),
    opening: z.array(spanSchema),
    axis: z.object({
      startMinutes: z.number().int(),
      endMinutes: z.number().int(),
      stepMinutes: z.number().int(),
    }),
    columns: z.array(
      z.object({
        staff: staffSchema,
        working: z.array(spanSchema),
        breaks: z.array(spanSchema),
        free: z.array(spanSchema),
        entries: z.array(entrySchema),
      }),
    ),
    cancelled: z.array(entrySchema),
    cancelledTitle: z.string().openapi({
      description:
        "キャンセル一覧の見出し。今日なら「本日のキャンセル」、ほかの日は「11月28日(土)のキャンセル」",
    }),
    previous: z.string(),
    next: z.string(),
  })
  .openapi("LedgerDay");

const weekSchema = z
  .object({
    view: z.literal("week"),
    salonId: z.string(),
    from: z.string(),
    to: z.string(),
    date: z.string(),
    today: z.string(),
    staff: z.array(staffSchema),
    days: z.array(
      z.object({
        date: z.string(),
        weekday: z.number().int(),
        holiday: z.string().nullable(),
        closed: closureSchema,
        perStaff: z.array(
          z.object({
            staffId: z.string(),
            count: z.number().int(),
            entries: z.array(
              z.object({
                ...statusFields,
                startTime: localTime,
                endTime: localTime,
                customerName: z.string(),
                label: z.string(),
              }),
            ),
          }),
        ),
        cancelledCount: z.number().int(),
      }),
    ),
    previous: z.string(),
    next: z.string(),
  })
  .openapi("LedgerWeek");

const notFound = errorResponse("サロンが見つからないか、管理する権限がありません（not_found）");

const ledgerRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/ledger",
  operationId: "getOwnerLedger",
  tags: ownerTags,
  summary: "予約台帳（1日または1週間）",
  description:
    "/owner/salons/{id}/bookings と同じ内容。day: スタイリストごとの勤務時間（休憩・休業を含む）、予約・仮押さえ・ブロック、空き、キャンセルされた予約。week: 月曜から7日間の、日・スタイリストごとの件数と一覧。時刻はサロンの現地時刻。",
  security: signedIn,
  request: { params, query: ledgerQuery },
  responses: {
    200: { description: "予約台帳", ...json(envelope(z.union([daySchema, weekSchema]))) },
    404: notFound,
    ...authErrorResponses,
    ...errorResponses,
  },
});

const streamRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/ledger/stream",
  operationId: "streamOwnerLedger",
  tags: ownerTags,
  summary: "予約台帳のライブ更新（Server-Sent Events）",
  description:
    "text/event-stream。接続直後と、from〜to の日付の予約・仮押さえ・ブロックが変わるたびに event: ledger（data は { changedDates, data }。changedDates は変わった日付で、最初の1件と、変更を取りこぼした可能性があるときは null。data は { from, to }）を送ります。どのアプリサーバーでの変更も届きます（PostgreSQL LISTEN/NOTIFY）。受け取ったら GET …/ledger を読み直してください。25秒ごとにコメント行、retry: で再接続間隔を指示します。",
  security: signedIn,
  request: { params, query: streamQuery },
  responses: {
    200: {
      description: "イベントストリーム",
      content: { "text/event-stream": { schema: z.string() } },
    },
    404: notFound,
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** The stream's range: today when left out; a bad or too long one is a 400 in Japanese. */
function streamRange(query: z.infer<typeof streamQuery>, timeZone: string, now: Date) {
  const today = toLocal(now, timeZone).date;
  const from = query.from || today;
  const to = query.to || from;
  if (!isLocalDate(from) || !isLocalDate(to)) {
    throw new BadRequestError(
      "invalid_date",
      "from と to は YYYY-MM-DD の形式で、実在する日付を指定してください。",
    );
  }
  if (to < from) {
    throw new BadRequestError("invalid_date", "to は from 以降の日付を指定してください。");
  }
  if (addDays(from, MAX_LEDGER_STREAM_DAYS - 1) < to) {
    throw new BadRequestError(
      "invalid_date",
      `一度に監視できるのは${MAX_LEDGER_STREAM_DAYS}日分までです。`,
    );
  }
  return { from, to };
}

export function registerOwnerLedgerRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(ledgerRoute, async (c) => {
    const id = c.req.valid("param").id;
    const access = await requireSalonAccessApi(c.req.raw, deps, id, ledgerRoute[CAPABILITY]);
    const query = c.req.valid("query");
    const now = deps.now();
    const date = ledgerDate(query.date, access.salon, now);
    const ledger = await buildLedger(
      deps.db,
      access.salon,
      date,
      now,
      query.view ?? "day",
      viewScope(access),
    );
    return c.json({ data: ledger }, 200);
  });

  app.openapi(streamRoute, async (c) => {
    const id = c.req.valid("param").id;
    const access = await requireSalonAccessApi(c.req.raw, deps, id, streamRoute[CAPABILITY]);
    const range = streamRange(c.req.valid("query"), access.salon.timeZone, deps.now());
    const response = await openAvailabilityStream(c, {
      slotEvents: deps.slotEvents,
      salonId: access.salon.id,
      ...range,
      event: "ledger",
      snapshot: async () => range,
      heartbeatMs: deps.heartbeatMs,
    });
    return response as never;
  });
}
