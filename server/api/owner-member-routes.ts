import { createRoute, z } from "@hono/zod-openapi";
import { salonMemberRoles } from "../db/schema";
import { salonPeople } from "../owner/members.server";
import { requireSalonAccessApi } from "../owner/salon-access.server";
import { authErrorResponses, errorResponse, errorResponses, signedIn } from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./booking-api";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * The salon's people as JSON (issue 29, point 1; decision 0045): what
 * /owner/salons/{id}/members lists, for the salon's owner or an administrator.
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

const person = {
  userId: z.string(),
  name: z.string(),
  email: z.string(),
};
const role = z.enum(salonMemberRoles).openapi({
  description: "manager（マネージャー）/ reception（受付）/ stylist（スタイリスト）",
});

const peopleSchema = z
  .object({
    owners: z.array(z.object(person)).openapi({ description: "サロンのオーナー" }),
    members: z
      .array(
        z.object({
          ...person,
          role,
          roleLabel: z.string().openapi({ example: "受付" }),
          staffId: z
            .string()
            .nullable()
            .openapi({ description: "stylist: つながっているスタイリスト" }),
          staffName: z.string().nullable(),
          version: z.number().int().openapi({ description: "役割の変更・削除のときに送る版" }),
        }),
      )
      .openapi({ description: "スタッフ（登録順）" }),
    invitations: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          email: z.string(),
          role,
          roleLabel: z.string(),
          staffName: z.string().nullable(),
          expiresAt: z.string().openapi({ description: "ISO 8601" }),
          expiresLabel: z.string().openapi({ example: "2026年11月29日(日) 14:00" }),
        }),
      )
      .openapi({ description: "承認待ちの招待（有効期限内）" }),
    stylistsWithoutAccount: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .openapi({
        description: "アカウントも招待もない掲載中のスタイリスト（スタイリストとして招待できる人）",
      }),
  })
  .openapi("OwnerSalonPeople");

const membersRoute = createRoute({
  ...needs("members.manage"),
  method: "get",
  path: "/owner/salons/{id}/members",
  operationId: "ownerSalonMembers",
  tags: ownerTags,
  summary: "サロンのメンバー（オーナー・スタッフ・招待中）",
  description:
    "/owner/salons/{id}/members と同じ内容。オーナーと管理者のみ（members.manage）。スタッフの役割は manager・reception・stylist。",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "メンバー",
      content: { "application/json": { schema: envelope(peopleSchema) } },
    },
    404: errorResponse("サロンが見つからないか、メンバーを管理する権限がありません"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET …/members. */
export function registerOwnerMemberRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(membersRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, membersRoute[CAPABILITY]);
    return c.json({ data: await salonPeople(deps.db, access.salon, deps.now()) }, 200);
  });
}
