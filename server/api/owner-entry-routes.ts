import { createRoute, z } from "@hono/zod-openapi";
import type { bookings } from "../db/schema";
import {
  blockReasons,
  blockSchema,
  entrySources,
  MAX_BLOCK_TEXT,
  MAX_ENTRY_MENUS,
  MAX_SALON_NOTE,
  salonBookingSchema,
} from "../owner/salon-entries.schema";
import {
  blockTime,
  enterSalonBooking,
  findCustomers,
  MAX_CUSTOMER_MATCHES,
} from "../owner/salon-entries.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The salon's own entries as JSON (issue 28, point 5; decision 0042): a
 * phone or walk-in booking, blocked time, and the customer lookup, the same
 * functions as /owner/salons/{id}/bookings/new. Each needs bookings.enter.
 */

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
const ownerTags = ["サロン管理"];

const salonParams = z.object({
  id: uuid("サロンID").openapi({
    param: { name: "id", in: "path" },
    description: "サロンの UUID",
    example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});

// The page's own schemas (zod, without .openapi): one rule for the form and the API.
const bookingBody = salonBookingSchema;
const blockBody = blockSchema;
const bookingBodyHelp = `source は phone（電話）か walk_in（来店）。date（YYYY-MM-DD）と time（HH:MM）はサロンの現地日時。menuIds（${MAX_ENTRY_MENUS}件まで）はスタイリストが担当するメニュー。お客様は customerId（GET …/customers/lookup で見つけた顧客）か customer（name・kana・phone、email は任意）のどちらか一方。staffRequested（既定 true）、salonNote（${MAX_SALON_NOTE}文字まで）。`;
const blockBodyHelp = `from〜to（HH:MM、現地時刻、同じ日）にスタイリストの時間をふさぎます。reason は ${blockReasons.join(" / ")}（休憩 / 打ち合わせ / 研修 / その他）、text は${MAX_BLOCK_TEXT}文字まで。`;

const entrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(["booking", "block"]),
    bookingNumber: z.string().openapi({ example: "7K3M-Q9PZ" }),
    staffId: z.string(),
    startsAt: z.string().openapi({ description: "ISO 8601" }),
    endsAt: z.string(),
    occupiedUntil: z
      .string()
      .openapi({ description: "終了＋片付け時間（この時刻までスタイリストが埋まる）" }),
    totalPrice: z.number().int(),
    status: z.literal("confirmed"),
    source: z.enum(entrySources).or(z.literal("web")),
    customerId: z.string().nullable(),
    customerName: z.string(),
    customerKana: z.string(),
    customerPhone: z.string(),
    customerEmail: z.string(),
    salonNote: z.string().openapi({ description: "ブロックではその表示名（例：休憩：ランチ）" }),
    version: z.number().int(),
  })
  .openapi("OwnerEntry");

const lookupQuery = z.object({
  q: z.string().max(50, "検索語は50文字以内で入力してください。").default("").openapi({
    description: "電話番号（先頭から）、お名前・フリガナ（一部）",
    example: "090-1234",
  }),
});

const customerMatchSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kana: z.string(),
    phone: z.string().openapi({ description: "数字のみ" }),
    email: z.string(),
    hasAccount: z.boolean(),
  })
  .openapi("OwnerCustomerMatch");

const conflict409 = errorResponse(
  "ほかの予約・仮押さえ・ブロックと重なっています（slot_conflict）。message が重なる相手（時刻とお客様名またはブロック名）を示し、conflicts に一覧",
);
const notFound404 = errorResponse("サロンが見つかりません、または権限がありません（not_found）");

const bookingRoute = createRoute({
  ...needs("bookings.enter"),
  method: "post",
  path: "/owner/salons/{id}/bookings",
  operationId: "ownerEnterBooking",
  tags: ownerTags,
  summary: "電話・来店の予約を入力",
  description:
    "確定済みの予約を作ります。Web予約の受付時間（直前の締切・受付期間・当日締切）はかかりません。スタイリストの出勤予定外は 422（outside_schedule）で、allowOutsideSchedule: true で入れられます。ほかの予約と重なる時間は必ず 409。メールアドレスがあればお客様に確認メールを送ります。" +
    bookingBodyHelp,
  security: signedIn,
  request: { params: salonParams, body: { required: true, ...json(bookingBody) } },
  responses: {
    201: { description: "入力した予約", ...json(envelope(entrySchema)) },
    404: notFound404,
    409: conflict409,
    422: errorResponse(
      "出勤予定外（outside_schedule）、日付が範囲外（date_out_of_range）、公開中でないサロン（salon_not_published）",
    ),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const blockRoute = createRoute({
  ...needs("bookings.enter"),
  method: "post",
  path: "/owner/salons/{id}/blocks",
  operationId: "ownerBlockTime",
  tags: ownerTags,
  summary: "スタイリストの時間をブロック（休憩・打ち合わせ・研修など）",
  description:
    "ブロックした時間は Web の空き時間から消え、台帳に表示されます。予約と重なる時間には入れられません（409）。" +
    blockBodyHelp,
  security: signedIn,
  request: { params: salonParams, body: { required: true, ...json(blockBody) } },
  responses: {
    201: { description: "入力したブロック", ...json(envelope(entrySchema)) },
    404: notFound404,
    409: conflict409,
    422: errorResponse("日付が範囲外（date_out_of_range）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const lookupRoute = createRoute({
  ...needs("bookings.enter"),
  method: "get",
  path: "/owner/salons/{id}/customers/lookup",
  operationId: "ownerLookupCustomers",
  tags: ownerTags,
  summary: "予約入力のためのお客様検索",
  description: `このサロンの顧客（統合先のみ）を電話番号の先頭、またはお名前・フリガナの一部で探します。最大${MAX_CUSTOMER_MATCHES}件。`,
  security: signedIn,
  request: { params: salonParams, query: lookupQuery },
  responses: {
    200: { description: "見つかったお客様", ...json(envelope(z.array(customerMatchSchema))) },
    404: notFound404,
    ...authErrorResponses,
    ...errorResponses,
  },
});

function entryBody(row: typeof bookings.$inferSelect) {
  return {
    id: row.id,
    kind: row.kind,
    bookingNumber: row.bookingNumber,
    staffId: row.staffId,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    occupiedUntil: row.occupiedUntil.toISOString(),
    totalPrice: row.totalPrice,
    status: "confirmed" as const,
    source: row.source,
    customerId: row.customerId,
    customerName: row.customerName,
    customerKana: row.customerKana,
    customerPhone: row.customerPhone,
    customerEmail: row.customerEmail,
    salonNote: row.salonNote,
    version: row.version,
  };
}

/** Registered before the customers' routes: /customers/lookup is not a customer id. */
export function registerOwnerEntryRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  const { db, now } = deps;

  app.openapi(bookingRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, bookingRoute[CAPABILITY]);
    const booking = await enterSalonBooking(
      db,
      access.salon.id,
      c.req.valid("json"),
      { userId: access.user.id },
      now(),
    );
    return c.json({ data: entryBody(booking) }, 201);
  });

  app.openapi(blockRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, blockRoute[CAPABILITY]);
    const block = await blockTime(
      db,
      access.salon.id,
      c.req.valid("json"),
      { userId: access.user.id },
      now(),
    );
    return c.json({ data: entryBody(block) }, 201);
  });

  app.openapi(lookupRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, lookupRoute[CAPABILITY]);
    const matches = await findCustomers(db, access.salon.id, c.req.valid("query").q);
    return c.json({ data: matches }, 200);
  });
}
