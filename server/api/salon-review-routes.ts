import { createRoute, z } from "@hono/zod-openapi";
import { REVIEW_GENRE_MAX } from "../../common/review-list-query";
import { reviewAspects, reviewSortLabels, reviewSorts } from "../../common/reviews";
import { SLUG_PATTERN } from "../../common/slug";
import { type ListedReview, salonReviewList } from "../reviews/review-list.server";
import { publishedSalonRef } from "../salons/salon-ref";
import { errorResponse, errorResponses } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { envelope, salonParams } from "./schemas";

const MAX_PAGE = 500;
const pageMessage = `page は1以上${MAX_PAGE}以下の整数で指定してください。`;

const reviewListQuery = z.object({
  sort: z
    .enum(reviewSorts, {
      error: `sort は ${reviewSorts.join(" / ")} のいずれかで指定してください。`,
    })
    .default("newest")
    .openapi({
      description: reviewSorts.map((sort) => `${sort}: ${reviewSortLabels[sort]}`).join("、"),
    }),
  staff: z
    .string()
    .regex(
      SLUG_PATTERN,
      "staff の形式が正しくありません（スタイリストのスラッグまたは UUID で指定してください）。",
    )
    .optional()
    .openapi({
      description:
        "スタイリストのスラッグまたは UUID。口コミのあるスタイリスト（filters.stylists）に限ります",
    }),
  genre: z
    .string()
    .trim()
    .min(1, "genre を指定してください（メニューのジャンル、例：カット）。")
    .max(REVIEW_GENRE_MAX, `genre は${REVIEW_GENRE_MAX}文字以内で指定してください。`)
    .optional()
    .openapi({
      description:
        "メニューのジャンル（例：カット）。口コミのあるジャンル（filters.genres）に限ります",
    }),
  page: z.coerce
    .number({ error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(MAX_PAGE, pageMessage)
    .default(1)
    .openapi({ example: 1, type: "integer" }),
});

const rating = z.number().int().min(1).max(5);

const reviewSchema = z
  .object({
    id: z.string(),
    rating,
    ratingAtmosphere: rating.nullable().openapi({ description: "雰囲気（任意）" }),
    ratingService: rating.nullable().openapi({ description: "接客（任意）" }),
    ratingTechnique: rating.nullable().openapi({ description: "技術（任意）" }),
    ratingFinish: rating.nullable().openapi({ description: "仕上がり（任意）" }),
    title: z.string(),
    body: z.string().openapi({ description: "本文（プレーンテキスト。改行を含みます）" }),
    authorLabel: z.string().openapi({ example: "30代前半・女性" }),
    visitedOn: z.string().openapi({ description: "来店日（YYYY-MM-DD）", example: "2026-10-01" }),
    createdAt: z.string().openapi({ description: "投稿日時（ISO 8601）" }),
    verified: z.literal(true).openapi({
      description: "来店済み：すべての口コミは完了した予約に基づきます",
    }),
    stylist: z
      .object({ slug: z.string(), name: z.string() })
      .nullable()
      .openapi({ description: "来店時の担当スタイリスト" }),
    menus: z
      .array(z.object({ name: z.string(), genre: z.string() }))
      .openapi({ description: "来店時のメニューとそのジャンル" }),
    reply: z
      .object({
        body: z.string(),
        repliedAt: z.string(),
        updatedAt: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "サロンからの返信" }),
  })
  .openapi("SalonReview");

const reviewListSchema = z
  .object({
    summary: z.object({
      average: z
        .number()
        .openapi({ description: "平均評価（小数1桁、口コミなしは0）", example: 4.3 }),
      count: z.number().int(),
      distribution: z
        .array(z.object({ rating, count: z.number().int() }))
        .openapi({ description: "星ごとの件数（5から1の順）" }),
      aspects: z
        .array(
          z.object({
            key: z.enum(reviewAspects.map((aspect) => aspect.key)),
            label: z.string(),
            average: z.number().nullable(),
            count: z.number().int(),
          }),
        )
        .openapi({ description: "項目ごとの平均（評価した口コミがなければ null）" }),
    }),
    filters: z.object({
      sort: z.enum(reviewSorts),
      staff: z.string().nullable(),
      genre: z.string().nullable(),
      stylists: z
        .array(z.object({ slug: z.string(), name: z.string() }))
        .openapi({ description: "口コミのあるスタイリスト（staff に指定できる値）" }),
      genres: z.array(z.string()).openapi({ description: "口コミのあるメニューのジャンル" }),
    }),
    reviews: z.array(reviewSchema),
    total: z.number().int().openapi({ description: "条件に合う口コミの数" }),
    page: z.number().int(),
    pages: z.number().int(),
    pageSize: z.number().int(),
  })
  .openapi("SalonReviewList");

const listRoute = createRoute({
  method: "get",
  path: "/salons/{id}/reviews",
  operationId: "listSalonReviews",
  tags: ["口コミ"],
  summary: "サロンの口コミ（集計と1ページ分）",
  description:
    "来店したお客様の口コミ（非表示にされたものを除く）。平均・件数・星ごとの件数・項目ごとの平均と、並び替え・絞り込みした1ページ（10件）を返します。認証は不要です。",
  request: { params: salonParams, query: reviewListQuery },
  responses: {
    200: {
      description: "口コミ",
      content: { "application/json": { schema: envelope(reviewListSchema) } },
    },
    400: errorResponse(
      "入力が正しくありません（invalid_request）、またはそのスタイリスト・ジャンルの口コミがありません（unknown_filter）",
    ),
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    500: errorResponses[500],
  },
});

function reviewBody(review: ListedReview) {
  return {
    ...review,
    createdAt: review.createdAt.toISOString(),
    reply: review.reply
      ? {
          body: review.reply.body,
          repliedAt: review.reply.repliedAt.toISOString(),
          updatedAt: review.reply.updatedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/** The salon's public reviews (issue 30, points 3 and 4). */
export function registerSalonReviewRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(listRoute, async (c) => {
    const salon = await publishedSalonRef(deps.db, c.req.valid("param").id);
    const query = c.req.valid("query");
    const list = await salonReviewList(deps.db, salon.id, query);
    return c.json(
      {
        data: {
          summary: list.summary,
          filters: {
            ...list.filters,
            stylists: list.choices.stylists.map(({ slug, name }) => ({ slug, name })),
            genres: list.choices.genres,
          },
          reviews: list.items.map(reviewBody),
          total: list.total,
          page: list.page,
          pages: list.pages,
          pageSize: list.pageSize,
        },
      },
      200,
    );
  });
}
