import { createRoute, z } from "@hono/zod-openapi";
import { salonActor } from "../bookings/booking-history.server";
import { bookingActionSchema, CANCEL_MESSAGE_MAX } from "../owner/booking-actions.schema";
import { applyBookingAction, getOwnerBooking } from "../owner/booking-actions.server";
import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  invalidRequest,
  signedIn,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { detailSchema, ownerBookingJson } from "./owner-booking-routes";
import { CAPABILITY, needs } from "./owner-capability";
import { envelope, uuid } from "./schemas";

/**
 * Approval mode as JSON (issue 29, point 4; decision 0051): the salon
 * approves a pending web booking (仮予約) or declines it. The same
 * functions as the booking page's 承認する / 承認しない
 * (server/owner/booking-actions.server.ts approveBooking, refuseBooking),
 * read through the same schema as POST …/actions, which also takes
 * `approve` and `refuse`.
 */

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
  bookingId: uuid("予約ID").openapi({
    param: { name: "bookingId", in: "path" },
    description: "承認待ちの予約の UUID",
    example: "5d0f3c8e-9a1b-4c2d-8e7f-0a1b2c3d4e5f",
  }),
});

const VERSION_ERROR = "予約の版（version）は整数で指定してください。";
const version = z
  .number({ error: VERSION_ERROR })
  .int(VERSION_ERROR)
  .openapi({ description: "表示した予約の version。違えば 409（他の操作で変更済み）" });

const approveBody = z
  .object({ version }, { error: "承認の内容を JSON のオブジェクトで送ってください（version）。" })
  .openapi("OwnerBookingApprove");

const refuseBody = z
  .object(
    {
      version,
      message: z
        .string({ error: "お客様へのメッセージ（message）は文字列で指定してください。" })
        .optional()
        .openapi({
          description: `お客様へのメッセージ（${CANCEL_MESSAGE_MAX}文字まで、お断りのメールに載ります）`,
        }),
    },
    { error: "お断りの内容を JSON のオブジェクトで送ってください（version と message）。" },
  )
  .openapi("OwnerBookingRefuse");

const common = {
  404: errorResponse(
    "予約またはサロンが見つかりません（ほかのサロンの予約、操作の権限がないロールも同じ）（not_found）",
  ),
  409: errorResponse(
    "他の操作で変更済み（booking_changed）。予約を読み直して version を送り直してください",
  ),
  422: errorResponse(
    "承認待ちではない予約（booking_not_pending: 承認済み、承認制でない予約）、キャンセル済みなど確定中でない予約（booking_not_confirmed）、ブロック（booking_action_refused）",
  ),
  ...authErrorResponses,
  ...errorResponses,
};

const approveRoute = createRoute({
  ...needs("bookings.act"),
  method: "post",
  path: "/owner/salons/{id}/bookings/{bookingId}/approve",
  operationId: "ownerBookingApprove",
  tags: ownerTags,
  summary: "仮予約を承認する（承認制のサロン）",
  description:
    "承認待ち（approval: pending）の予約を確定します（approval: approved、status は confirmed のまま）。1つのトランザクションで、履歴に confirmed が1件残り、お客様に確定のメール（.ics は同じ UID・次の SEQUENCE の REQUEST）を送ります。",
  security: signedIn,
  request: { params, body: { required: true, ...json(approveBody) } },
  responses: {
    200: { description: "承認後の予約", ...json(envelope(detailSchema)) },
    ...common,
  },
});

const refuseRoute = createRoute({
  ...needs("bookings.act"),
  method: "post",
  path: "/owner/salons/{id}/bookings/{bookingId}/refuse",
  operationId: "ownerBookingRefuse",
  tags: ownerTags,
  summary: "仮予約を承認しない（承認制のサロン）",
  description:
    "承認待ちの予約をサロン都合のキャンセルにします（status: cancelled_by_salon、cancelCategory: salon、approval: refused）。時間はすぐに空きます。履歴に cancelled（details.approval: refused）が1件残り、お客様にお断りのメール（.ics は METHOD:CANCEL）を送ります。",
  security: signedIn,
  request: { params, body: { required: true, ...json(refuseBody) } },
  responses: {
    200: { description: "お断り後の予約", ...json(envelope(detailSchema)) },
    ...common,
  },
});

/** POST …/bookings/{bookingId}/approve and …/refuse. */
export function registerOwnerApprovalRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(approveRoute, async (c) => {
    const { id, bookingId } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, approveRoute[CAPABILITY]);
    const parsed = bookingActionSchema.safeParse({ ...c.req.valid("json"), action: "approve" });
    if (!parsed.success) throw invalidRequest(parsed.error);
    const target = { salonId: access.salon.id, bookingId };
    await applyBookingAction(deps.db, target, parsed.data, salonActor(access.user.id), deps.now(), {
      provider: deps.payments ?? null,
      publicUrl: deps.config.PUBLIC_URL,
      log: deps.log,
    });
    return c.json({ data: ownerBookingJson(await getOwnerBooking(deps.db, target)) }, 200);
  });

  app.openapi(refuseRoute, async (c) => {
    const { id, bookingId } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, refuseRoute[CAPABILITY]);
    const parsed = bookingActionSchema.safeParse({ ...c.req.valid("json"), action: "refuse" });
    if (!parsed.success) throw invalidRequest(parsed.error);
    const target = { salonId: access.salon.id, bookingId };
    await applyBookingAction(deps.db, target, parsed.data, salonActor(access.user.id), deps.now(), {
      provider: deps.payments ?? null,
      publicUrl: deps.config.PUBLIC_URL,
      log: deps.log,
    });
    return c.json({ data: ownerBookingJson(await getOwnerBooking(deps.db, target)) }, 200);
  });
}
