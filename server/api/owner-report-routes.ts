import { createRoute, z } from "@hono/zod-openapi";
import { toLocal } from "../../common/local-time";
import { BadRequestError } from "../errors/domain-error";
import { MAX_PERIOD_DAYS } from "../owner/period.schema";
import { parseReportQuery, reportGroups } from "../owner/reports.schema";
import { salonReport } from "../owner/reports.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The salon's reports as JSON (issue 29, point 6; decision 0050): the same
 * figures as /owner/salons/{id}/reports (server/owner/reports.server.ts),
 * for the salon's own spreadsheets and dashboards.
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

// Checked by parseReportQuery (one set of Japanese messages with the page); strings here.
const reportQuery = z.object({
  from: z.string().optional().openapi({
    description: "集計の最初の日（YYYY-MM-DD、サロンの現地日付）。省略すると今月1日",
    example: "2026-11-01",
  }),
  to: z
    .string()
    .optional()
    .openapi({
      description: `集計の最後の日（この日を含む。開始日から${MAX_PERIOD_DAYS}日まで）。省略すると今月末日`,
      example: "2026-11-30",
    }),
  group: z.string().optional().openapi({
    description: "day（日ごと、既定）/ week（週ごと、月曜始まり）/ month（月ごと）",
    example: "day",
  }),
});

const localDate = (description: string) =>
  z.string().openapi({ description, example: "2026-11-23" });
const yen = (description: string) => z.number().openapi({ description: `${description}（円）` });
const count = (description: string) => z.number().int().openapi({ description });

const sums = {
  bookedCount: count("予約件数（確定・完了。承認待ちの仮予約を含む）"),
  bookedAmount: yen("予約金額（total_price の合計）"),
  completedCount: count("完了件数"),
  completedAmount: yen("売上（完了した予約。会計があれば会計の合計、なければ予約時の金額）"),
  paidCount: count("会計登録済みの完了件数"),
  paidAmount: yen("会計登録済みの売上（実際のお支払い。店販を含む）"),
  unpaidCount: count("会計未登録の完了件数"),
  unpaidAmount: yen("会計未登録の完了の予約時の金額（見込み）"),
  bookedMinutes: count("予約時間（分、開始から終了まで）"),
  scheduledMinutes: count("勤務予定（分、週の勤務時間・例外・休業日・祝日の規則から）"),
  utilisation: z
    .number()
    .nullable()
    .openapi({ description: "稼働率（予約時間÷勤務予定、0.25 = 25%）。勤務予定がなければ null" }),
};

const lead = {
  bookings: count("予約件数（確定・完了）"),
  bookedAhead: count("うち事前予約（ウォークインを除く）"),
  medianLeadHours: z
    .number()
    .nullable()
    .openapi({ description: "予約から開始までの時間の中央値（時間）。事前予約がなければ null" }),
};

const reportSchema = z
  .object({
    salon: z.object({ id: z.string(), name: z.string(), timeZone: z.string() }),
    query: z.object({
      from: localDate("集計の最初の日"),
      to: localDate("集計の最後の日"),
      group: z.enum(reportGroups),
    }),
    totals: z.object({
      ...sums,
      cancelledCount: count("キャンセル件数（お客様・サロン）"),
      noShowCount: count("来店なし（no_show）の件数"),
    }),
    buckets: z
      .array(
        z.object({
          from: localDate("区間の最初の日（期間内）"),
          to: localDate("区間の最後の日（期間内）"),
          ...sums,
          cancelledCount: z.number().int(),
          noShowCount: z.number().int(),
        }),
      )
      .openapi({ description: "日・週・月ごと（予約のない区間も含む）" }),
    stylists: z.array(
      z.object({
        staffId: z.string(),
        staffName: z.string(),
        active: z.boolean().openapi({ description: "false: 非表示のスタッフ（勤務予定は0）" }),
        ...sums,
        nominatedCount: count("指名数（確定・完了の予約のうちお客様がスタッフを指名したもの）"),
        nominationRate: z
          .number()
          .nullable()
          .openapi({ description: "指名率（指名数÷予約件数、0.5 = 50%）。予約がなければ null" }),
        newCustomers: count("新規客数（サロンへの初めての来店が期間内でこのスタッフだった人数）"),
        returningCustomers: count("再来客数（期間内にこのスタッフで2回目以降の来店があった人数）"),
        serviceAmount: yen("技術売上（会計の店販以外と、会計未登録の予約時の金額）"),
        retailAmount: yen("店販売上（会計の店販商品）"),
        averageSpend: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "客単価（売上÷完了件数、円）。完了がなければ null" }),
      }),
    ),
    menus: z
      .array(
        z.object({
          menuId: z.string(),
          name: z.string().openapi({ description: "予約時のメニュー名（最新の予約のもの）" }),
          bookedCount: z.number().int(),
          bookedAmount: yen("予約時の価格の合計"),
          completedCount: z.number().int(),
          completedAmount: yen("完了した予約の予約時の価格の合計"),
        }),
      )
      .openapi({ description: "メニュー別（予約金額の多い順）" }),
    cancellations: z.object({
      customer: count("お客様がネットでキャンセル"),
      customer_advance: count("お客様都合（事前連絡）: サロンが受け付けたお客様のキャンセル"),
      customer_same_day: count("お客様都合（当日連絡）: サロンが受け付けたお客様のキャンセル"),
      no_contact: count("無断キャンセル（連絡なし）: お客様のキャンセルとして数える"),
      salon: count("サロン都合（区分なしを含む）。お客様のキャンセルは含まない"),
      noShow: count("来店なし（ノーショー）"),
    }),
    customers: z.object({
      newCustomers: count("新規（このサロンで初めての予約が期間内）の人数"),
      returningCustomers: count("再来の人数"),
      newBookings: z.number().int(),
      returningBookings: z.number().int(),
      unknownBookings: count("顧客情報のない予約"),
    }),
    hours: z
      .array(
        z.object({
          hour: count("開始時刻の時（0〜23、サロンの現地時刻）"),
          ...lead,
          rank: z
            .number()
            .int()
            .nullable()
            .openapi({ description: "埋まりやすさの順位（中央値が長い順、1が最も早く埋まる）" }),
        }),
      )
      .openapi({ description: "予約のある時間帯（時刻順）" }),
    weekdays: z
      .array(z.object({ weekday: count("0 = 日曜 … 6 = 土曜"), ...lead }))
      .openapi({ description: "予約のある曜日（月曜から）" }),
  })
  .openapi("OwnerReport");

const reportRoute = createRoute({
  ...needs("reports.read"),
  method: "get",
  path: "/owner/salons/{id}/reports",
  operationId: "getOwnerReport",
  tags: ownerTags,
  summary: "レポート（売上・稼働率・キャンセル・新規と再来・埋まりやすい時間帯）",
  description:
    "/owner/salons/{id}/reports と同じ集計。期間はサロンの現地日付で、両端を含みます。オーナー・マネージャー・管理者のみ（reports.read）。",
  security: signedIn,
  request: { params, query: reportQuery },
  responses: {
    200: {
      description: "期間の集計",
      content: { "application/json": { schema: envelope(reportSchema) } },
    },
    404: errorResponse("サロンが見つからないか、レポートを見る権限がありません（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
    400: errorResponse(
      `期間または集計の単位が正しくありません（日付の形式、終了日が開始日より前、${MAX_PERIOD_DAYS}日を超える期間、day/week/month 以外）（invalid_report_query）`,
    ),
  },
});

/** GET /api/owner/salons/{id}/reports. */
export function registerOwnerReportRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(reportRoute, async (c) => {
    const access = await requireSalonAccessApi(
      c.req.raw,
      deps,
      c.req.valid("param").id,
      reportRoute[CAPABILITY],
    );
    const today = toLocal(deps.now(), access.salon.timeZone).date;
    const parsed = parseReportQuery(c.req.valid("query"), today);
    if (!parsed.ok) {
      throw new BadRequestError(
        "invalid_report_query",
        parsed.errors[0]?.message ?? "期間を確認してください。",
      );
    }
    return c.json({ data: await salonReport(deps.db, access.salon, parsed.query) }, 200);
  });
}
