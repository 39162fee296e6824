import { createRoute, z } from "@hono/zod-openapi";
import { ledgerDate } from "../owner/ledger.server";
import { viewScope } from "../owner/scope.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import { listWaitlistForSalonDay } from "../waitlist/waitlist.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";
import { waitlistEntryBody, waitlistEntrySchema } from "./waitlist-routes";

/**
 * The salon's waiting list of one day (issue 30, point 4; decision 0055),
 * in line order, as the ledger shows it: a stylist sees the entries that
 * name them and the 指名なし ones (viewScope).
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
  date: z
    .string({ error: "日付は YYYY-MM-DD の形式で指定してください。" })
    .max(40, "日付は YYYY-MM-DD の形式で指定してください。")
    .optional()
    .openapi({ description: "表示する日（YYYY-MM-DD、サロンの現地日付）。省略すると今日" }),
});

const salonEntrySchema = waitlistEntrySchema
  .extend({
    position: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "待ちの順番（1 が次にご案内）。終了したものは null" }),
    customer: z.object({ name: z.string(), kana: z.string() }),
  })
  .openapi("SalonWaitlistEntry");

const waitlistRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/waitlist",
  operationId: "getOwnerWaitlist",
  tags: ownerTags,
  summary: "キャンセル待ち（1日分、順番どおり）",
  description:
    "その日のキャンセル待ちを登録順に。ご案内中のものは確保したお時間と期限つき。スタイリストは自分を指名したものと指名なしのものだけ。",
  security: signedIn,
  request: { params, query },
  responses: {
    200: {
      description: "キャンセル待ち",
      content: {
        "application/json": {
          schema: envelope(z.object({ date: z.string(), entries: z.array(salonEntrySchema) })),
        },
      },
    },
    404: errorResponse("サロンが見つからないか、管理する権限がありません（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

export function registerOwnerWaitlistRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(waitlistRoute, async (c) => {
    const id = c.req.valid("param").id;
    const access = await requireSalonAccessApi(c.req.raw, deps, id, waitlistRoute[CAPABILITY]);
    const date = ledgerDate(c.req.valid("query").date, access.salon, deps.now());
    const entries = await listWaitlistForSalonDay(deps.db, {
      salonId: access.salon.id,
      date,
      staffId: viewScope(access).staffId,
    });
    return c.json({ data: { date, entries: entries.map(waitlistEntryBody) } }, 200);
  });
}
