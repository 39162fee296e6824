import { createRoute, z } from "@hono/zod-openapi";
import { couponTargets } from "../../common/coupon-eligibility";
import { toLocal } from "../../common/local-time";
import { staffBookingLabel } from "../../common/status-labels";
import { salonActor } from "../bookings/booking-history.server";
import {
  bookingActorKinds,
  bookingApprovals,
  bookingEventKinds,
  bookingKinds,
  bookingSources,
  bookingStatuses,
  salonCancelCategories,
} from "../db/schema";
import {
  bookingActionNames,
  bookingActionSchema,
  CANCEL_MESSAGE_MAX,
  MOVE_MENUS_MAX,
  SALON_NOTE_MAX,
  undoableActions,
} from "../owner/booking-actions.schema";
import { applyBookingAction, type OwnerBookingDetail } from "../owner/booking-actions.server";
import { readOwnerBooking } from "../owner/scope.server";
import { paymentJson } from "../payments/payment-lines";
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
import { bookingPaymentsSchema, envelope, policySnapshotSchema, uuid } from "./schemas";

/**
 * One booking of the salon and the actions on it, as JSON (issue 28,
 * point 4; decision 0040): the same functions as
 * /owner/salons/{id}/bookings/{bookingId} (server/owner/booking-actions.server.ts).
 */

// Not imported from owner-api.ts, which imports this module (a cycle at load time).
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
    description: "予約（またはブロック）の UUID",
    example: "5d0f3c8e-9a1b-4c2d-8e7f-0a1b2c3d4e5f",
  }),
});

const iso = (description: string) =>
  z
    .string()
    .openapi({ description: `${description}（ISO 8601）`, example: "2026-12-03T05:00:00.000Z" });

export const detailSchema = z
  .object({
    id: z.string(),
    kind: z
      .enum(bookingKinds)
      .openapi({ description: "booking: 予約、block: ブロック（休憩など）" }),
    bookingNumber: z.string().openapi({ example: "7K3M-Q9TX" }),
    status: z.enum(bookingStatuses),
    statusLabel: z.string().openapi({
      example: "仮予約（承認待ち）",
      description:
        "管理画面と同じ状態の呼び方: 予約確定 / 仮予約（承認待ち） / 来店済み / 施術完了 / お客様キャンセル / サロンキャンセル / 無断キャンセル（ブロックはブロック中 / 削除済み）",
    }),
    approval: z.enum(bookingApprovals).nullable().openapi({
      description:
        "承認制（仮予約）: pending（承認待ち。status は confirmed で時間は確保済み）/ approved（承認済み）/ refused（承認しない。status は cancelled_by_salon）。承認制でない予約は null",
    }),
    source: z.enum(bookingSources).openapi({ description: "web / phone（電話）/ walk_in（来店）" }),
    version: z
      .number()
      .int()
      .openapi({ description: "操作のときにそのまま送る版。違えば 409（他の操作で変更済み）" }),
    startsAt: iso("開始"),
    endsAt: iso("終了"),
    date: z.string().openapi({ example: "2026-12-03", description: "サロンの現地日付" }),
    startTime: z.string().openapi({ example: "14:00" }),
    endTime: z.string().openapi({ example: "15:00" }),
    timeZone: z.string(),
    staff: z.object({ id: z.string(), name: z.string() }),
    staffRequested: z.boolean().openapi({ description: "true: 指名、false: 指名なし" }),
    customer: z.object({
      name: z.string(),
      kana: z.string(),
      phone: z.string().openapi({ description: "スタイリスト（stylist）には空文字" }),
      email: z.string().openapi({ description: "スタイリスト（stylist）には空文字" }),
    }),
    customerId: z
      .string()
      .nullable()
      .openapi({ description: "顧客カルテの ID。顧客を扱えないロール（stylist）には null" }),
    menus: z.array(
      z.object({
        menuId: z.string(),
        name: z.string(),
        price: z.number().int(),
        durationMinutes: z.number().int(),
      }),
    ),
    coupon: z
      .object({
        id: z.string(),
        title: z.string(),
        target: z
          .enum(couponTargets)
          .openapi({ description: "new: 新規、returning: 再来、all: 全員" }),
      })
      .nullable(),
    studentDeclared: z
      .boolean()
      .openapi({ description: "学割：お客様が予約時に学生であることを申告した" }),
    totalPrice: z.number().int().openapi({ description: "円（税込）。指名料を含みます" }),
    nominationFee: z.number().int().openapi({
      description:
        "指名料（円、税込）。totalPrice に含まれます。指名なし・指名料のないスタイリストは 0",
      example: 0,
    }),
    notes: z.string().openapi({ description: "お客様からのご要望" }),
    paymentPolicy: policySnapshotSchema.nullable().openapi({
      description: "お客様が予約時に同意したお支払い・キャンセルポリシー。なければ null",
    }),
    payments: bookingPaymentsSchema,
    salonNote: z
      .string()
      .openapi({ description: "サロンのメモ（お客様には見えません）。ブロックではその名前" }),
    arrivedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelledBy: z.string().nullable(),
    cancelCategory: z.enum(salonCancelCategories).nullable(),
    cancelReason: z.string(),
    createdAt: iso("作成"),
    history: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(bookingEventKinds),
        actorKind: z.enum(bookingActorKinds),
        actorName: z.string().nullable(),
        details: z.record(z.string(), z.unknown()),
        at: iso("日時"),
      }),
    ),
  })
  .openapi("OwnerBooking");

const ACTION_ERROR =
  "操作の種類（action）は arrived / completed / no_show / cancel / move / note / release / approve / refuse のいずれかです。";
const VERSION_ERROR = "予約の版（version）は整数で指定してください。";
const stringOf = (label: string) => z.string({ error: `${label}は文字列で指定してください。` });

/** Documented loosely; the body is then read by bookingActionSchema (the page's rules too). */
const actionBody = z
  .object(
    {
      action: z.enum(bookingActionNames, { error: ACTION_ERROR }).openapi({
        description:
          "arrived（来店、開始60分前から）/ completed（施術完了、来店後か開始時刻後）/ no_show（無断キャンセル、開始時刻後のみ）/ undo（その日の来店・施術完了・無断キャンセルの取り消し）/ cancel（サロンが受け付けるキャンセル。理由は category）/ move（日時・スタイリスト・メニューの変更）/ note（サロンメモ）/ release（ブロックの削除）/ approve（仮予約を承認）/ refuse（仮予約を承認しない）",
      }),
      version: z
        .number({ error: VERSION_ERROR })
        .int(VERSION_ERROR)
        .optional()
        .openapi({ description: "表示した予約の version（note 以外は必須）" }),
      category: z
        .enum(salonCancelCategories, {
          error:
            "キャンセルの理由（category）は customer_advance / customer_same_day / no_contact / salon のいずれかです。",
        })
        .optional()
        .openapi({
          description:
            "cancel: customer_advance（お客様都合（事前連絡））/ customer_same_day（お客様都合（当日連絡））/ no_contact（無断キャンセル）はお客様のキャンセル（status: cancelled_by_user、cancelledBy: salon）、salon（サロン都合）だけがサロンのキャンセル（status: cancelled_by_salon）",
        }),
      undo: z
        .enum(undoableActions, {
          error: "取り消す操作（undo）は arrived / completed / no_show のいずれかです。",
        })
        .optional()
        .openapi({
          description:
            "undo: 取り消す記録（arrived・completed・no_show）。記録したその日（サロンの日付）のうち、最後の記録だけ取り消せます（ほかは 422 undo_not_allowed）。来店で登録した飛び込み（walk_in）の来店は取り消せません",
        }),
      message: stringOf("お客様へのメッセージ（message）")
        .optional()
        .openapi({
          description: `cancel / refuse: お客様へのメッセージ（${CANCEL_MESSAGE_MAX}文字まで、メールに載ります）`,
        }),
      date: stringOf("日付（date）")
        .optional()
        .openapi({ description: "move: サロンの現地日付", example: "2026-12-03" }),
      time: stringOf("開始時刻（time）")
        .optional()
        .openapi({ description: "move: 開始時刻 HH:MM", example: "14:00" }),
      staffId: stringOf("スタイリスト（staffId）")
        .optional()
        .openapi({ description: "move: スタイリストの UUID" }),
      menuIds: z
        .array(stringOf("メニュー（menuIds）の各要素"), {
          error: "メニュー（menuIds）は UUID の配列で指定してください。",
        })
        .optional()
        .openapi({
          description: `move: メニューの UUID（1〜${MOVE_MENUS_MAX}件、時間と料金はこれから）`,
        }),
      confirmOutsideSchedule: z
        .boolean({ error: "confirmOutsideSchedule は true か false で指定してください。" })
        .optional()
        .openapi({
          description:
            "move: スタイリストの勤務時間外でも移動する（なければ 422 outside_schedule）",
        }),
      keepNomination: z
        .boolean({ error: "keepNomination は true か false で指定してください。" })
        .optional()
        .openapi({
          description:
            "move: 指名を引き継ぐ。指名の予約を別のスタイリストへ移すとき、true なら移動先のスタイリストの指名（と指名料）にします。省略・false なら指名なしになり、指名料はなくなります",
        }),
      note: stringOf("サロンメモ（note）")
        .optional()
        .openapi({ description: `note: サロンメモ（${SALON_NOTE_MAX}文字まで）` }),
    },
    { error: "操作の内容を JSON のオブジェクトで送ってください（action と version）。" },
  )
  .openapi("OwnerBookingAction");

const detailRoute = createRoute({
  ...needs("ledger.read"),
  method: "get",
  path: "/owner/salons/{id}/bookings/{bookingId}",
  operationId: "ownerBooking",
  tags: ownerTags,
  summary: "予約の詳細と履歴",
  security: signedIn,
  request: { params },
  responses: {
    200: {
      description: "予約（日時はサロンの現地時刻も）と履歴（古い順）",
      ...json(envelope(detailSchema)),
    },
    404: errorResponse("予約またはサロンが見つかりません（ほかのサロンの予約も同じ）（not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const actionRoute = createRoute({
  ...needs("bookings.act"),
  method: "post",
  path: "/owner/salons/{id}/bookings/{bookingId}/actions",
  operationId: "ownerBookingAction",
  tags: ownerTags,
  summary: "予約の操作（来店・施術完了・無断キャンセル・キャンセル・移動・メモ・ブロック削除）",
  description:
    "1回の操作は1つのトランザクションで、予約の履歴に1件残ります。version が表示したものと違えば 409 で、何も変わりません。移動が他の予約やブロックと重なると 409 で、重なる相手を message で伝えます。",
  security: signedIn,
  request: { params, body: { required: true, ...json(actionBody) } },
  responses: {
    200: { description: "操作後の予約", ...json(envelope(detailSchema)) },
    404: errorResponse("予約またはサロンが見つかりません（not_found）"),
    409: errorResponse(
      "他の操作で変更済み（booking_changed）、または移動先が他の予約・仮押さえ・ブロックと重なる（slot_conflict。message が重なる相手を挙げ、conflicts に同じ内容）",
    ),
    422: errorResponse(
      "この状態ではできない操作（booking_not_confirmed など）、開始前の無断キャンセル（no_show_too_early）、勤務時間外で確認なし（outside_schedule）、担当外のメニュー（staff_cannot_do_menu）",
    ),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** The detail as JSON: instants as ISO strings, and the local date and times beside them. */
export function ownerBookingJson(detail: OwnerBookingDetail) {
  const start = toLocal(detail.startsAt, detail.timeZone);
  return {
    ...detail,
    statusLabel: staffBookingLabel({ ...detail, arrived: detail.arrivedAt !== null }),
    startsAt: detail.startsAt.toISOString(),
    endsAt: detail.endsAt.toISOString(),
    date: start.date,
    startTime: start.time,
    endTime: toLocal(detail.endsAt, detail.timeZone).time,
    arrivedAt: detail.arrivedAt?.toISOString() ?? null,
    cancelledAt: detail.cancelledAt?.toISOString() ?? null,
    createdAt: detail.createdAt.toISOString(),
    payments: detail.payments.map(paymentJson),
    history: detail.history.map((event) => ({ ...event, at: event.at.toISOString() })),
  };
}

/** GET …/bookings/{bookingId} and POST …/bookings/{bookingId}/actions. */
export function registerOwnerBookingRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.openapi(detailRoute, async (c) => {
    const { id, bookingId } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, detailRoute[CAPABILITY]);
    const detail = await readOwnerBooking(deps.db, access, bookingId);
    return c.json({ data: ownerBookingJson(detail) }, 200);
  });

  app.openapi(actionRoute, async (c) => {
    const { id, bookingId } = c.req.valid("param");
    const access = await requireSalonAccessApi(c.req.raw, deps, id, actionRoute[CAPABILITY]);
    const parsed = bookingActionSchema.safeParse(c.req.valid("json"));
    if (!parsed.success) throw invalidRequest(parsed.error);
    const target = { salonId: access.salon.id, bookingId };
    await applyBookingAction(deps.db, target, parsed.data, salonActor(access.user.id), deps.now(), {
      provider: deps.payments ?? null,
      publicUrl: deps.config.PUBLIC_URL,
      log: deps.log,
    });
    const detail = await readOwnerBooking(deps.db, access, bookingId);
    return c.json({ data: ownerBookingJson(detail) }, 200);
  });
}
