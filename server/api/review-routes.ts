import { createRoute, z } from "@hono/zod-openapi";
import {
  REVIEW_BODY_MAX,
  REVIEW_BODY_MIN,
  REVIEW_EDIT_DAYS,
  REVIEW_REPORT_NOTE_MAX,
  REVIEW_TITLE_MAX,
  REVIEW_WRITE_DAYS,
  reviewEditClosesAt,
  reviewReportReasonLabels,
} from "../../common/reviews";
import { clientIp } from "../accounts/request-info";
import { reviewReportReasons } from "../db/schema/reviews";
import { NotFoundError } from "../errors/domain-error";
import { reviewInputSchema, reviewReportSchema } from "../reviews/review.schema";
import { eligibility, reportReview, saveReview } from "../reviews/reviews.server";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  invalidRequest,
  requireApiUser,
  signedIn,
  signedInOnly,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { bookingParams, envelope, uuid } from "./schemas";

/**
 * The customer's review of a visit and reports of reviews as JSON (issue
 * 30, points 1, 2 and 4; decision 0054): the same rules and messages as
 * /account/reviews/{bookingId} and /reviews/{reviewId}/report.
 */

const tags = ["口コミ"];
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

const stars = (label: string) =>
  z
    .number({ error: `${label}は1〜5の整数で指定してください。` })
    .int(`${label}は1〜5の整数で指定してください。`)
    .min(1, `${label}は1〜5の整数で指定してください。`)
    .max(5, `${label}は1〜5の整数で指定してください。`);

const aspect = (label: string) =>
  stars(label)
    .nullable()
    .optional()
    .openapi({ description: `${label}の評価（1〜5、任意。null または省略で評価なし）` });

const reviewRequestSchema = z
  .object(
    {
      rating: stars("総合評価（rating）").openapi({ description: "総合評価（1〜5）", example: 5 }),
      ratingAtmosphere: aspect("雰囲気（ratingAtmosphere）"),
      ratingService: aspect("接客（ratingService）"),
      ratingTechnique: aspect("技術（ratingTechnique）"),
      ratingFinish: aspect("仕上がり（ratingFinish）"),
      title: z
        .string({ error: "タイトル（title）は文字列で指定してください。" })
        .optional()
        .openapi({ description: `タイトル（任意、1行、${REVIEW_TITLE_MAX}文字以内）` }),
      body: z.string({ error: "口コミの本文（body）は文字列で指定してください。" }).openapi({
        description: `本文（前後の空白を除いて${REVIEW_BODY_MIN}〜${REVIEW_BODY_MAX}文字。テキストとして保存・表示され、HTML や URL はそのまま文字になります）`,
        example: "丁寧なカウンセリングで、仕上がりも希望どおりでした。",
      }),
      version: z
        .number({ error: "version は GET …/review の値（整数）で指定してください。" })
        .int("version は GET …/review の値（整数）で指定してください。")
        .min(0, "version は GET …/review の値（整数）で指定してください。")
        .optional()
        .openapi({
          description:
            "編集のとき、GET …/review の version。初めて書くときは省略。既にある口コミに省略すると 409（review_exists）",
        }),
    },
    { error: "送信内容は { rating, body, … } の JSON オブジェクトで指定してください。" },
  )
  .openapi("ReviewRequest");

const customerReviewSchema = z
  .object({
    id: z.string(),
    bookingId: z.string(),
    salonId: z.string(),
    staffId: z.string().nullable().openapi({ description: "来店時のスタイリスト" }),
    rating: z.number().int(),
    ratingAtmosphere: z.number().int().nullable(),
    ratingService: z.number().int().nullable(),
    ratingTechnique: z.number().int().nullable(),
    ratingFinish: z.number().int().nullable(),
    title: z.string(),
    body: z.string().openapi({ description: "本文（テキスト。HTML ではありません）" }),
    authorLabel: z.string().openapi({ example: "30代前半・女性" }),
    visitedOn: z.string().openapi({ description: "来店日（YYYY-MM-DD、サロンの時間帯）" }),
    hidden: z
      .boolean()
      .openapi({ description: "運営が非表示にした口コミ（サロンのページに出ません）" }),
    reply: z
      .object({ body: z.string(), repliedAt: z.string() })
      .nullable()
      .openapi({ description: "サロンからの返信（なければ null）" }),
    version: z.number().int().openapi({ description: "編集するときに送る版" }),
    createdAt: z.string(),
    updatedAt: z.string(),
    editableUntil: z.string().openapi({
      description: `この日時まで編集できます（投稿から${REVIEW_EDIT_DAYS}日、ISO 8601）`,
    }),
  })
  .openapi("CustomerReview");

type Review = Awaited<ReturnType<typeof saveReview>>["review"];

function reviewBody(review: Review) {
  return {
    id: review.id,
    bookingId: review.bookingId,
    salonId: review.salonId,
    staffId: review.staffId,
    rating: review.rating,
    ratingAtmosphere: review.ratingAtmosphere,
    ratingService: review.ratingService,
    ratingTechnique: review.ratingTechnique,
    ratingFinish: review.ratingFinish,
    title: review.title,
    body: review.body,
    authorLabel: review.authorLabel,
    visitedOn: review.visitedOn,
    hidden: review.hiddenAt !== null,
    reply:
      review.replyBody !== null && review.repliedAt !== null
        ? { body: review.replyBody, repliedAt: review.repliedAt.toISOString() }
        : null,
    version: review.version,
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
    editableUntil: reviewEditClosesAt(review.createdAt).toISOString(),
  };
}

const getRoute = createRoute({
  method: "get",
  path: "/bookings/{id}/review",
  operationId: "getMyReview",
  tags,
  summary: "自分の予約（来店）への口コミ",
  security: signedIn,
  request: { params: bookingParams },
  responses: {
    200: { description: "口コミ", ...json(envelope(customerReviewSchema)) },
    404: errorResponse("予約が見つからないか、まだ口コミがありません（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const putRoute = createRoute({
  method: "put",
  path: "/bookings/{id}/review",
  operationId: "saveMyReview",
  tags,
  summary: "来店の口コミを書く・編集する",
  description: `施術が完了した自分の予約に、口コミを1件書きます（来店日から${REVIEW_WRITE_DAYS}日目の終わりまで）。既にあれば、GET …/review の version を付けて編集します（投稿から${REVIEW_EDIT_DAYS}日間）。スタイリストと来店日は予約から、投稿者の表示（「30代前半・女性」など）は会員情報から決まります。サロンの平均評価は同じトランザクションで更新されます。`,
  security: signedIn,
  request: { params: bookingParams, body: { required: true, ...json(reviewRequestSchema) } },
  responses: {
    200: { description: "編集した口コミ", ...json(envelope(customerReviewSchema)) },
    201: { description: "書いた口コミ", ...json(envelope(customerReviewSchema)) },
    404: errorResponse("予約が見つかりません（他人の予約も同じく not_found）"),
    409: errorResponse(
      "既に口コミがある（review_exists：編集は version を付けて）、または見ている version の後に変更された（review_changed）",
    ),
    422: errorResponse(
      "施術完了前（review_not_completed）、投稿できる期間を過ぎた（review_window_closed）、編集できる期間を過ぎた（review_edit_closed）",
    ),
    429: errorResponse("操作が多すぎます（too_many_requests）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const reportParams = z.object({
  reviewId: uuid("口コミID").openapi({
    param: { name: "reviewId", in: "path" },
    description: "口コミの UUID",
    example: "5d1e0c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

const reportRequestSchema = z
  .object(
    {
      reason: z
        .enum(reviewReportReasons, {
          error: `通報の理由（reason）は ${reviewReportReasons.join(" / ")} のいずれかで指定してください。`,
        })
        .openapi({
          description: Object.entries(reviewReportReasonLabels)
            .map(([key, label]) => `${key}：${label}`)
            .join("、"),
        }),
      note: z
        .string({ error: "補足（note）は文字列で指定してください。" })
        .optional()
        .openapi({ description: `補足（任意、${REVIEW_REPORT_NOTE_MAX}文字以内）` }),
    },
    { error: "送信内容は { reason, note } の JSON オブジェクトで指定してください。" },
  )
  .openapi("ReviewReportRequest");

const reportSchema = z
  .object({
    id: z.string(),
    reviewId: z.string(),
    reason: z.enum(reviewReportReasons),
    note: z.string(),
    createdAt: z.string(),
  })
  .openapi("ReviewReport");

const reportRoute = createRoute({
  method: "post",
  path: "/reviews/{reviewId}/reports",
  operationId: "reportReview",
  tags,
  summary: "口コミを通報する",
  description:
    "サロンのページに表示されている口コミを、理由を付けて運営に知らせます。1つの口コミに1人1回、自分の口コミは通報できません。",
  security: signedIn,
  request: { params: reportParams, body: { required: true, ...json(reportRequestSchema) } },
  responses: {
    201: { description: "受け付けた通報", ...json(envelope(reportSchema)) },
    404: errorResponse("口コミが見つかりません（非表示の口コミも同じく not_found）"),
    409: errorResponse("この口コミはすでに通報済みです（already_reported）"),
    422: errorResponse("自分の口コミです（own_review）"),
    429: errorResponse("操作が多すぎます（too_many_requests）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET/PUT /api/bookings/{id}/review and POST /api/reviews/{reviewId}/reports. */
export function registerReviewRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  const { db, now } = deps;
  // /bookings/* is already signed-in only (booking-routes.ts).
  app.use("/reviews/*", signedInOnly(deps));

  app.openapi(getRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { id } = c.req.valid("param");
    const { review } = await eligibility(db, { userId: user.id, bookingId: id, now: now() });
    if (!review) throw new NotFoundError("このご予約の口コミはまだありません。");
    return c.json({ data: reviewBody(review) }, 200);
  });

  app.openapi(putRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { id } = c.req.valid("param");
    const input = reviewInputSchema.safeParse(c.req.valid("json"));
    if (!input.success) throw invalidRequest(input.error);
    const { review, created } = await saveReview(db, {
      userId: user.id,
      bookingId: id,
      input: input.data,
      now: now(),
      limits: deps.accounts.limits,
      ip: clientIp(c.req.raw),
    });
    return created
      ? c.json({ data: reviewBody(review) }, 201)
      : c.json({ data: reviewBody(review) }, 200);
  });

  app.openapi(reportRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const { reviewId } = c.req.valid("param");
    const report = reviewReportSchema.safeParse(c.req.valid("json"));
    if (!report.success) throw invalidRequest(report.error);
    const created = await reportReview(db, {
      userId: user.id,
      reviewId,
      report: report.data,
      now: now(),
      limits: deps.accounts.limits,
      ip: clientIp(c.req.raw),
    });
    return c.json(
      {
        data: {
          id: created.id,
          reviewId: created.reviewId,
          reason: created.reason,
          note: created.note,
          createdAt: created.createdAt.toISOString(),
        },
      },
      201,
    );
  });
}
