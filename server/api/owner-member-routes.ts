import { createRoute, z } from "@hono/zod-openapi";
import { salonMemberRoles } from "../db/schema";
import { memberFormSchemas } from "../owner/members.schema";
import {
  cancelInvitation,
  changeMemberRole,
  inviteMember,
  removeMember,
  salonPeople,
} from "../owner/members.server";
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
    stylistsWithoutAccount: z.array(z.object({ id: z.string(), name: z.string() })).openapi({
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

const json = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
});
const peopleAnswer = (description: string) => ({
  description,
  ...json(envelope(peopleSchema)),
});
const text = (description: string) => z.string().max(1000).openapi({ description });
const versionField = z.number().int().openapi({ description: "GET …/members の member.version" });

const inviteRoute = createRoute({
  ...needs("members.manage"),
  method: "post",
  path: "/owner/salons/{id}/members/invitations",
  operationId: "ownerInviteMember",
  tags: ownerTags,
  summary: "スタッフを招待する",
  description:
    "メールアドレスに役割（manager・reception・stylist）つきの招待メールを送ります。新しいアドレスにはアカウントを作り、リンクでパスワードを設定します。既存のアカウントはリンクで承認するとメンバーになります。stylist は staffId（アカウントも招待もない掲載中のスタイリスト）が必須。送信者ごと・アドレスごとに回数制限があります。",
  security: signedIn,
  request: {
    params,
    body: {
      required: true,
      ...json(
        z.object({
          name: text("お名前"),
          email: text("メールアドレス"),
          role,
          staffId: text("stylist のときのスタイリスト ID").optional(),
        }),
      ),
    },
  },
  responses: {
    201: peopleAnswer("招待後のメンバー（invitations に加わります）"),
    404: errorResponse("サロンが見つからないか、メンバーを管理する権限がありません"),
    409: errorResponse(
      "すでにオーナーかメンバー、送信済み、管理者のアドレス、スタイリストに別のアカウント",
    ),
    429: errorResponse("招待の送信が多すぎます（too_many_invitations）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const roleRoute = createRoute({
  ...needs("members.manage"),
  method: "post",
  path: "/owner/salons/{id}/members/role",
  operationId: "ownerChangeMemberRole",
  tags: ownerTags,
  summary: "スタッフの役割を変える",
  description:
    "userId のメンバーの役割（と stylist のスタイリスト）を変えます。version が GET …/members の値と違えば 409（ほかの人が変更済み）。次のリクエストから反映されます。",
  security: signedIn,
  request: {
    params,
    body: {
      required: true,
      ...json(
        z.object({
          userId: text("メンバーの userId"),
          role,
          staffId: text("stylist のときのスタイリスト ID").optional(),
          version: versionField,
        }),
      ),
    },
  },
  responses: {
    200: peopleAnswer("変更後のメンバー"),
    404: errorResponse("サロンかメンバーが見つかりません"),
    409: errorResponse("ほかの人が変更済み（version_conflict）、スタイリストに別のアカウント"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const removeRoute = createRoute({
  ...needs("members.manage"),
  method: "post",
  path: "/owner/salons/{id}/members/remove",
  operationId: "ownerRemoveMember",
  tags: ownerTags,
  summary: "スタッフをメンバーから外す",
  description:
    "userId のメンバーを外します。その人の次のリクエストからこのサロンは 404 です（アカウントは残ります）。version が違えば 409。",
  security: signedIn,
  request: {
    params,
    body: {
      required: true,
      ...json(z.object({ userId: text("メンバーの userId"), version: versionField })),
    },
  },
  responses: {
    200: peopleAnswer("削除後のメンバー"),
    404: errorResponse("サロンかメンバーが見つかりません"),
    409: errorResponse("ほかの人が変更済み（version_conflict）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const cancelRoute = createRoute({
  ...needs("members.manage"),
  method: "post",
  path: "/owner/salons/{id}/members/invitations/cancel",
  operationId: "ownerCancelMemberInvitation",
  tags: ownerTags,
  summary: "スタッフ招待を取り消す",
  description: "承認前の招待を取り消します。送ったリンクは使えなくなります。",
  security: signedIn,
  request: {
    params,
    body: { required: true, ...json(z.object({ invitationId: text("招待の id") })) },
  },
  responses: {
    200: peopleAnswer("取り消し後のメンバー"),
    404: errorResponse("サロンか招待が見つかりません（承認済み・取り消し済みも）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** The form's schema with the JSON body (no intent, confirm given by calling the operation). */
function parsed<T extends keyof typeof memberFormSchemas>(intent: T, body: unknown) {
  const fields =
    body && typeof body === "object" && !Array.isArray(body)
      ? Object.fromEntries(
          Object.entries(body).map(([key, value]) => [
            key,
            typeof value === "number" ? String(value) : value,
          ]),
        )
      : {};
  const result = memberFormSchemas[intent].safeParse({
    staffId: "",
    ...fields,
    intent,
    confirm: "yes",
  });
  if (!result.success) throw invalidRequest(result.error);
  return result.data as never;
}

/** GET …/members and its changes: invite, change a role, remove, cancel an invitation. */
export function registerOwnerMemberRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  const people = async (salon: { id: string; timeZone: string }) =>
    salonPeople(deps.db, salon, deps.now());

  app.openapi(membersRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, membersRoute[CAPABILITY]);
    return c.json({ data: await people(access.salon) }, 200);
  });

  app.openapi(inviteRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, inviteRoute[CAPABILITY]);
    const input = parsed("invite", c.req.valid("json"));
    const ctx = { db: deps.db, accounts: deps.accounts, publicUrl: deps.config.PUBLIC_URL };
    await inviteMember(ctx, access, input, deps.now());
    return c.json({ data: await people(access.salon) }, 201);
  });

  app.openapi(roleRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, roleRoute[CAPABILITY]);
    await changeMemberRole(deps.db, access, parsed("role", c.req.valid("json")), deps.now());
    return c.json({ data: await people(access.salon) }, 200);
  });

  app.openapi(removeRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, removeRoute[CAPABILITY]);
    await removeMember(deps.db, access, parsed("remove", c.req.valid("json")), deps.now());
    return c.json({ data: await people(access.salon) }, 200);
  });

  app.openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, cancelRoute[CAPABILITY]);
    await cancelInvitation(deps.db, access, parsed("cancel", c.req.valid("json")), deps.now());
    return c.json({ data: await people(access.salon) }, 200);
  });
}
