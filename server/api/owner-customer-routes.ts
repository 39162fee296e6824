import { createRoute, z } from "@hono/zod-openapi";
import { UUID_PATTERN } from "../../common/uuid";
import { bookingSources, bookingStatuses, salonCancelCategories } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import {
  CUSTOMER_NOTES_MAX,
  CUSTOMER_QUERY_MAX,
  customerNotesInputSchema,
} from "../owner/customers.schema";
import {
  customerDetail,
  listCustomers,
  mergeCustomers,
  saveCustomerNotes,
  unmergeCustomer,
} from "../owner/customers.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The customers (顧客カルテ, issue 28, point 6; decision 0039) as JSON: the
 * same search, karte, merge and notes as /owner/salons/{id}/customers, for
 * a salon's own tools. Every operation needs customers.manage on the salon.
 */

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
const ownerTags = ["サロン管理"];

const salonParam = uuid("サロンID").openapi({
  param: { name: "id", in: "path" },
  description: "サロンの UUID",
  example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
});
const listParams = z.object({ id: salonParam });
const customerParams = z.object({
  id: salonParam,
  customerId: uuid("顧客ID").openapi({
    param: { name: "customerId", in: "path" },
    description: "顧客の UUID（このサロンの顧客のみ）",
    example: "5d0f6a3e-2b1c-4e8f-9a7d-3c2b1a0f9e8d",
  }),
});

const pageMessage = "page は1以上の整数で指定してください。";
const listQuery = z.object({
  q: z
    .string()
    .trim()
    .max(CUSTOMER_QUERY_MAX, `検索語は${CUSTOMER_QUERY_MAX}文字以内で指定してください。`)
    .default("")
    .openapi({ example: "やまだ", description: "お名前・フリガナ（ひらがな可）・電話番号の一部" }),
  page: z.coerce
    .number({ error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(10_000, "page は10000以下で指定してください。")
    .default(1)
    .openapi({ example: 1, type: "integer" }),
});

const statsSchema = z
  .object({
    visits: z.number().int().openapi({ description: "来店回数（来店済みの予約）" }),
    lastVisitAt: z.string().nullable().openapi({ description: "最終来店の開始日時（ISO 8601）" }),
    totalSpent: z.number().int().openapi({ description: "来店済みの予約の合計（円）" }),
    upcoming: z.number().int().openapi({ description: "これからの確定済み予約" }),
    cancelledByCustomer: z
      .number()
      .int()
      .openapi({ description: "お客様がネットでキャンセルした件数" }),
    cancelledBySalon: z
      .object({
        customer_advance: z.number().int().openapi({ description: "お客様都合（事前連絡）" }),
        salon: z.number().int().openapi({ description: "サロン都合" }),
        customer_same_day: z.number().int().openapi({ description: "お客様都合（当日連絡）" }),
        no_contact: z.number().int().openapi({ description: "無断キャンセル（連絡なし）" }),
      })
      .openapi({
        description:
          "サロンが受け付けて記録したキャンセル（理由の区分ごと）。サロン都合だけが status cancelled_by_salon、ほかはお客様のキャンセル（cancelled_by_user）",
      }),
    noShows: z.number().int().openapi({ description: "来店なし（no_show）" }),
  })
  .openapi("OwnerCustomerStats", {
    description: "この顧客と、統合したすべての記録の予約を合わせた数",
  });

const summaryFields = {
  id: z.string(),
  name: z.string(),
  kana: z.string().openapi({ description: "カタカナ" }),
  phone: z.string().openapi({ description: "数字のみ（不明なら空）", example: "09012345678" }),
  email: z.string(),
  hasAccount: z.boolean().openapi({ description: "会員として予約したことがある" }),
};
const summarySchema = z.object(summaryFields).openapi("OwnerCustomerSummary");

const listSchema = z
  .object({
    customers: z.array(z.object({ ...summaryFields, stats: statsSchema })),
    total: z.number().int().openapi({ description: "条件に合う顧客の数" }),
    page: z.number().int(),
    pageSize: z.number().int(),
    q: z.string(),
  })
  .openapi("OwnerCustomerList");

const detailSchema = z
  .object({
    customer: z.object({
      ...summaryFields,
      notes: z.string().openapi({ description: "サロンのメモ（お客様には見えません）" }),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
    mergedInto: summarySchema
      .nullable()
      .openapi({ description: "この記録の統合先（統合済みなら）" }),
    stats: statsSchema,
    merged: z
      .array(z.object({ ...summaryFields, mergedAt: z.string().nullable(), notes: z.string() }))
      .openapi({ description: "この顧客に統合した記録（unmerge で取り消せます）" }),
    suggestions: z
      .array(
        z.object({
          ...summaryFields,
          samePhone: z.boolean(),
          sameEmail: z.boolean(),
          sameName: z.boolean(),
          stats: statsSchema,
        }),
      )
      .openapi({ description: "同じ方かもしれない顧客（電話・メール・お名前とフリガナが同じ）" }),
    visits: z
      .array(
        z.object({
          id: z.string().openapi({ description: "予約の UUID" }),
          bookingNumber: z.string(),
          startsAt: z.string(),
          localDate: z.string().openapi({ example: "2026-12-01", description: "サロンの現地日付" }),
          localStart: z.string().openapi({ example: "10:30" }),
          localEnd: z.string().openapi({ example: "11:30" }),
          status: z.enum(bookingStatuses),
          cancelCategory: z.enum(salonCancelCategories).nullable(),
          source: z.enum(bookingSources),
          stylist: z.string(),
          staffRequested: z.boolean(),
          menus: z.array(z.string()),
          totalPrice: z.number().int(),
        }),
      )
      .openapi({ description: "予約・来店履歴（新しい順、100件まで）" }),
    visitTotal: z.number().int(),
  })
  .openapi("OwnerCustomerDetail");

const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});

const notFound = errorResponse(
  "サロンまたは顧客が見つかりません（not_found）。ほかのサロンの顧客も同じ答えです",
);

const listRoute = createRoute({
  ...needs("customers.manage"),
  method: "get",
  path: "/owner/salons/{id}/customers",
  operationId: "listOwnerCustomers",
  tags: ownerTags,
  summary: "顧客一覧（お名前・フリガナ・電話番号で検索、30件ずつ）",
  description:
    "統合先の顧客だけを、フリガナ順に返します。q はお名前・フリガナ（ひらがなでも可）・電話番号の一部・メールアドレスに一致します。来店回数などは統合した記録の予約も含みます。",
  security: signedIn,
  request: {
    params: listParams,
    query: listQuery,
  },
  responses: {
    200: { description: "顧客の1ページ", ...json(envelope(listSchema)) },
    404: notFound,
    ...authErrorResponses,
    ...errorResponses,
  },
});

const detailRoute = createRoute({
  ...needs("customers.manage"),
  method: "get",
  path: "/owner/salons/{id}/customers/{customerId}",
  operationId: "getOwnerCustomer",
  tags: ownerTags,
  summary: "顧客カルテ（統計、メモ、統合候補、統合した記録、予約・来店履歴）",
  security: signedIn,
  request: { params: customerParams },
  responses: {
    200: { description: "顧客カルテ", ...json(envelope(detailSchema)) },
    404: notFound,
    ...authErrorResponses,
    ...errorResponses,
  },
});

const otherBody = z
  .object({
    otherId: z
      .string({ error: "otherId（相手の顧客の UUID）を指定してください。" })
      .regex(UUID_PATTERN, "otherId の形式が正しくありません（UUID で指定してください）。")
      .openapi({ description: "相手の顧客の UUID" }),
  })
  .openapi("OwnerCustomerOther");

const mergeRoute = createRoute({
  ...needs("customers.manage"),
  method: "post",
  path: "/owner/salons/{id}/customers/{customerId}/merge",
  operationId: "mergeOwnerCustomers",
  tags: ownerTags,
  summary: "別の顧客をこの顧客に統合（unmerge で取り消せます）",
  description:
    "otherId の顧客をこの顧客に統合します。予約は動かさず、統合先を記録するだけです。どちらもこのサロンの、まだ統合されていない顧客である必要があります。",
  security: signedIn,
  request: { params: customerParams, body: { required: true, ...json(otherBody) } },
  responses: {
    200: { description: "統合後の顧客カルテ", ...json(envelope(detailSchema)) },
    404: notFound,
    409: errorResponse("どちらかがすでに統合されています（customer_already_merged）"),
    422: errorResponse("同じ顧客どうしは統合できません（merge_same_customer）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const unmergeRoute = createRoute({
  ...needs("customers.manage"),
  method: "post",
  path: "/owner/salons/{id}/customers/{customerId}/unmerge",
  operationId: "unmergeOwnerCustomer",
  tags: ownerTags,
  summary: "統合の取り消し（otherId をこの顧客から切り離す）",
  security: signedIn,
  request: { params: customerParams, body: { required: true, ...json(otherBody) } },
  responses: {
    200: { description: "取り消し後の顧客カルテ", ...json(envelope(detailSchema)) },
    404: notFound,
    409: errorResponse("この顧客に統合されていません（customer_not_merged）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const notesBody = z
  .object({
    notes: z
      .string({ error: "notes を文字列で指定してください。" })
      .max(CUSTOMER_NOTES_MAX * 2, `メモは${CUSTOMER_NOTES_MAX}文字以内で入力してください。`)
      .openapi({ description: `サロンのメモ（${CUSTOMER_NOTES_MAX}文字まで、改行可）` }),
    seenNotes: z
      .string()
      .max(CUSTOMER_NOTES_MAX * 2)
      .optional()
      .openapi({
        description:
          "編集を始めたときのメモ。指定すると、その間にほかの人が変えたメモを上書きせず 409（notes_changed）",
      }),
  })
  .openapi("OwnerCustomerNotes");

const notesRoute = createRoute({
  ...needs("customers.manage"),
  method: "put",
  path: "/owner/salons/{id}/customers/{customerId}/notes",
  operationId: "putOwnerCustomerNotes",
  tags: ownerTags,
  summary: "サロンのメモを保存（お客様・ほかのサロンには見えません）",
  security: signedIn,
  request: { params: customerParams, body: { required: true, ...json(notesBody) } },
  responses: {
    200: {
      description: "保存したメモ",
      ...json(envelope(z.object({ notes: z.string(), updatedAt: z.string() }))),
    },
    404: notFound,
    409: errorResponse("ほかの人がメモを更新しました（notes_changed）"),
    422: errorResponse("メモが長すぎるか、使えない文字があります（invalid_notes）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** /api/owner/salons/{id}/customers[/{customerId}[/merge|/unmerge|/notes]]. */
export function registerOwnerCustomerRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  // Every customers operation needs the same capability (each declares it in the document).
  const access = (request: Request, salonId: string) =>
    requireSalonAccessApi(request, deps, salonId, listRoute[CAPABILITY]);

  app.openapi(listRoute, async (c) => {
    const { salon } = await access(c.req.raw, c.req.valid("param").id);
    const query = c.req.valid("query");
    return c.json({ data: await listCustomers(deps.db, salon.id, query, deps.now()) }, 200);
  });

  app.openapi(detailRoute, async (c) => {
    const params = c.req.valid("param");
    const { salon } = await access(c.req.raw, params.id);
    return c.json(
      { data: await customerDetail(deps.db, salon, params.customerId, deps.now()) },
      200,
    );
  });

  app.openapi(mergeRoute, async (c) => {
    const params = c.req.valid("param");
    const { salon } = await access(c.req.raw, params.id);
    const now = deps.now();
    const { otherId } = c.req.valid("json");
    await mergeCustomers(deps.db, salon.id, { customerId: params.customerId, otherId }, now);
    return c.json({ data: await customerDetail(deps.db, salon, params.customerId, now) }, 200);
  });

  app.openapi(unmergeRoute, async (c) => {
    const params = c.req.valid("param");
    const { salon } = await access(c.req.raw, params.id);
    const { otherId } = c.req.valid("json");
    await unmergeCustomer(deps.db, salon.id, { customerId: params.customerId, otherId });
    return c.json(
      { data: await customerDetail(deps.db, salon, params.customerId, deps.now()) },
      200,
    );
  });

  app.openapi(notesRoute, async (c) => {
    const params = c.req.valid("param");
    const { salon } = await access(c.req.raw, params.id);
    const body = c.req.valid("json");
    const parsed = customerNotesInputSchema.safeParse(body);
    if (!parsed.success) {
      throw new DomainError(
        "invalid_notes",
        parsed.error.issues[0]?.message ?? "メモを確認してください。",
        422,
      );
    }
    const saved = await saveCustomerNotes(deps.db, salon.id, {
      customerId: params.customerId,
      ...parsed.data,
    });
    return c.json({ data: saved }, 200);
  });
}
