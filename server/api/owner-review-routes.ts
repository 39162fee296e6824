import { createRoute, z } from "@hono/zod-openapi";
import { REVIEW_REPLY_MAX, REVIEWS_PER_PAGE } from "../../common/reviews";
import {
  listReviewsForSalon,
  reviewForSalon,
  reviewMissing,
  saveReply,
} from "../reviews/review-replies.server";
import { ownerReviewQuerySchema, reviewReplySchema } from "../reviews/review-reply.schema";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  invalidRequest,
  signedIn,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The salon's reviews and its replies as JSON (issue 30, points 2 and 4;
 * decision 0056): what /owner/salons/{id}/reviews lists and answers, for
 * the salon's owner, a manager or an administrator (reviews.reply).
 */

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
const ownerTags = ["サロン管理"];

const salonId = uuid("サロンID").openapi({
  param: { name: "id", in: "path" },
  description: "サロンの UUID",
  example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
});
const params = z.object({ id: salonId });
const replyParams = z.object({
  id: salonId,
  reviewId: uuid("口コミID").openapi({
    param: { name: "reviewId", in: "path" },
    description: "口コミの UUID",
    example: "5d1e0c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

// Checked by ownerReviewQuerySchema (the page's messages); strings here.
const listQuery = z.object({
  filter: z.string().optional().openapi({
    description: "all（すべて、既定）/ unanswered（未返信のみ：返信がなく、非表示でないもの）",
    example: "unanswered",
  }),
  page: z
    .string()
    .optional()
    .openapi({
      description: `ページ（1から。1ページ${REVIEWS_PER_PAGE}件、新しい順）`,
      example: "1",
    }),
});

const reviewSchema = z
  .object({
    id: z.string(),
    rating: z.number().int().openapi({ description: "総合評価（1〜5）" }),
    aspects: z
      .array(z.object({ key: z.string(), label: z.string(), value: z.number().int() }))
      .openapi({ description: "項目別の評価（雰囲気・接客・技術・仕上がり。評価されたものだけ）" }),
    title: z.string(),
    body: z.string().openapi({ description: "本文（そのままのテキスト。HTMLではありません）" }),
    authorLabel: z.string().openapi({ example: "30代前半・女性" }),
    visitedOn: z.string().openapi({ description: "来店日（YYYY-MM-DD）" }),
    visitedLabel: z.string().openapi({ example: "2026年11月23日(月)" }),
    writtenAt: z.string().openapi({ description: "投稿日時（ISO 8601）" }),
    writtenLabel: z.string(),
    staffName: z.string().nullable().openapi({ description: "来店時のスタイリスト" }),
    menus: z.array(z.string()).openapi({ description: "来店時のメニュー" }),
    visited: z.literal(true).openapi({ description: "来店済み（完了した予約に基づく口コミ）" }),
    hidden: z.boolean().openapi({ description: "運営が非表示にした口コミ（返信不可）" }),
    reply: z
      .object({
        body: z.string(),
        repliedAt: z.string().openapi({ description: "最初に返信した日時（ISO 8601）" }),
        repliedLabel: z.string(),
        updatedAt: z.string().nullable().openapi({ description: "返信を更新した日時" }),
        updatedLabel: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "サロンからの返信（未返信は null）" }),
    version: z.number().int().openapi({ description: "返信するときに送る版" }),
  })
  .openapi("OwnerReview");

const listSchema = z
  .object({
    reviews: z.array(reviewSchema),
    filter: z.enum(["all", "unanswered"]),
    page: z.number().int(),
    perPage: z.number().int(),
    total: z.number().int().openapi({ description: "絞り込みに合う件数" }),
    allCount: z.number().int().openapi({ description: "すべての口コミ（非表示を含む）" }),
    unansweredCount: z.number().int().openapi({ description: "未返信の口コミ" }),
  })
  .openapi("OwnerReviewList");

const listRoute = createRoute({
  ...needs("reviews.reply"),
  method: "get",
  path: "/owner/salons/{id}/reviews",
  operationId: "ownerSalonReviews",
  tags: ownerTags,
  summary: "サロンの口コミ（返信の管理）",
  description:
    "/owner/salons/{id}/reviews と同じ内容。新しい順、非表示の口コミも hidden つきで含みます。オーナー・マネージャー・管理者のみ（reviews.reply）。",
  security: signedIn,
  request: { params, query: listQuery },
  responses: {
    200: {
      description: "口コミ",
      content: { "application/json": { schema: envelope(listSchema) } },
    },
    404: errorResponse("サロンが見つからないか、口コミに返信する権限がありません"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const replyRoute = createRoute({
  ...needs("reviews.reply"),
  method: "put",
  path: "/owner/salons/{id}/reviews/{reviewId}/reply",
  operationId: "ownerReplyToReview",
  tags: ownerTags,
  summary: "口コミに返信する（返信を更新する）",
  description: `口コミへのサロンの返信（1件に1つ）を書きます。2回目からは同じ返信の更新です。本文は前後の空白を除いて1〜${REVIEW_REPLY_MAX}文字。version が GET …/reviews の値と違えば 409（ほかの人が変更済み）。別のサロンの口コミは 404、非表示の口コミは 409。`,
  security: signedIn,
  request: {
    params: replyParams,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object(
            {
              body: z
                .string({ error: "返信の本文（body）は文字列で指定してください。" })
                .openapi({ description: "返信の本文" }),
              version: z
                .number({ error: "version は GET …/reviews の値（整数）で指定してください。" })
                .int("version は GET …/reviews の値（整数）で指定してください。")
                .openapi({ description: "GET …/reviews の version" }),
            },
            { error: "送信内容は { body, version } の JSON オブジェクトで指定してください。" },
          ),
        },
      },
    },
  },
  responses: {
    200: {
      description: "返信後の口コミ",
      content: { "application/json": { schema: envelope(reviewSchema) } },
    },
    404: errorResponse("サロンか口コミが見つかりません"),
    409: errorResponse("ほかの人が変更済み（version_conflict）、非表示の口コミ（review_hidden）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET …/reviews and PUT …/reviews/{reviewId}/reply. */
export function registerOwnerReviewRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(listRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, listRoute[CAPABILITY]);
    const query = ownerReviewQuerySchema.safeParse(c.req.valid("query"));
    if (!query.success) throw invalidRequest(query.error);
    return c.json({ data: await listReviewsForSalon(deps.db, access.salon.id, query.data) }, 200);
  });

  app.openapi(replyRoute, async (c) => {
    const { id, reviewId } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, replyRoute[CAPABILITY]);
    const body = c.req.valid("json");
    const input = reviewReplySchema.safeParse({ ...body, reviewId });
    if (!input.success) throw invalidRequest(input.error);
    const saved = await saveReply(deps.db, access, input.data, deps.now());
    const review = await reviewForSalon(deps.db, access.salon.id, saved.reviewId);
    if (!review) throw reviewMissing();
    return c.json({ data: review }, 200);
  });
}
