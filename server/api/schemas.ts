import { z } from "@hono/zod-openapi";
import { emailAddress, kanaName, personName, phoneNumber } from "../../common/field-rules";
import { depositKinds, feeWindows, paymentModes } from "../../common/payment-policy";
import { SLUG_PATTERN } from "../../common/slug";
import { UUID_PATTERN } from "../../common/uuid";
import { paymentKinds, paymentRowStatuses } from "../db/schema/payments";

/**
 * Input and output schemas of the booking API: they validate requests
 * (messages in Japanese, shown as they are) and are the OpenAPI document.
 */

export const MAX_API_RANGE_DAYS = 31;
export const MAX_API_MENUS = 5;

export const uuid = (label: string) =>
  z.string().regex(UUID_PATTERN, `${label}の形式が正しくありません（UUID で指定してください）。`);

/** A salon or stylist as the pages name it: its slug, or its UUID. */
const ref = (label: string) =>
  z
    .string()
    .regex(
      SLUG_PATTERN,
      `${label}の形式が正しくありません（スラッグまたは UUID で指定してください）。`,
    );

export const salonParams = z.object({
  id: ref("サロンID").openapi({
    param: { name: "id", in: "path" },
    description: "サロンのスラッグ（/salons/{slug} と同じ）または UUID",
    example: "hair-salon-shibuya",
  }),
});

export const favoriteParams = z.object({
  salonId: ref("サロンID").openapi({
    param: { name: "salonId", in: "path" },
    description: "サロンのスラッグまたは UUID",
    example: "hair-salon-shibuya",
  }),
});

export const bookingParams = z.object({
  id: uuid("予約ID").openapi({
    param: { name: "id", in: "path" },
    description: "予約の UUID",
    example: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
  }),
});

const localDate = (label: string) =>
  z.iso.date({ error: `${label}は YYYY-MM-DD の形式で指定してください（例：2026-12-01）。` });

/** `menus=a,b` or `menus=a&menus=b`: UUIDs in the visitor's order, no repeats. */
const menuList = z
  .union([z.string(), z.array(z.string())], {
    error: "メニューを1つ以上指定してください（menus=UUID,UUID）。",
  })
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(","))
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(uuid("メニューID"))
      .min(1, "メニューを1つ以上指定してください（menus=UUID,UUID）。")
      .max(MAX_API_MENUS, `メニューは${MAX_API_MENUS}つまで指定できます。`)
      .refine((ids) => new Set(ids).size === ids.length, "同じメニューが2回指定されています。"),
  );

export const availabilityQuery = z
  .object({
    from: localDate("開始日 from").openapi({ example: "2026-12-01" }),
    to: localDate("終了日 to").openapi({ example: "2026-12-07" }),
    menus: menuList.openapi({
      description: `メニューの UUID（カンマ区切り、または menus を繰り返す。${MAX_API_MENUS}件まで）`,
      type: "string",
      example: "6a1f0c1e-8a55-4f0b-9d0e-6f0a1b2c3d4e",
    }),
    staff: ref("スタイリストID")
      .optional()
      .openapi({ description: "スタイリストのスラッグまたは UUID。省略すると指名なし" }),
  })
  .refine((q) => q.to >= q.from, {
    path: ["to"],
    message: "終了日 to は開始日 from 以降の日付を指定してください。",
  })
  .refine((q) => daysBetween(q.from, q.to) < MAX_API_RANGE_DAYS, {
    path: ["to"],
    message: `一度に指定できるのは${MAX_API_RANGE_DAYS}日分までです。`,
  });

function daysBetween(from: string, to: string) {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

export type AvailabilityQuery = z.infer<typeof availabilityQuery>;

const slotSchema = z.object({
  start: z.iso.datetime({ offset: true }).openapi({ example: "2026-12-01T01:00:00.000Z" }),
  time: z.string().openapi({ description: "サロンの現地時刻 HH:MM", example: "10:00" }),
  staffIds: z.array(z.string()).openapi({ description: "この時刻に空いているスタイリストの UUID" }),
});

export const dayAvailabilitySchema = z
  .object({
    date: z.string().openapi({ example: "2026-12-01" }),
    weekday: z.number().int().min(0).max(6).openapi({ description: "0 = 日曜" }),
    holiday: z.boolean().openapi({ description: "祝日" }),
    closedReason: z
      .enum(["salon_closed", "holiday", "outside_window", "past", "full"])
      .nullable()
      .openapi({ description: "空きがない理由（空きがある日は null）" }),
    slots: z.array(slotSchema),
  })
  .openapi("DayAvailability");

export const availabilitySchema = z
  .object({
    salon: z.object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      timeZone: z.string().openapi({ example: "Asia/Tokyo" }),
    }),
    from: z.string(),
    to: z.string(),
    staffId: z.string().nullable().openapi({ description: "指名なしは null" }),
    durationMinutes: z.number().int(),
    totalPrice: z.number().int(),
    days: z.array(dayAvailabilitySchema),
  })
  .openapi("Availability");

export const holdRequestSchema = z
  .object({
    salonId: ref("サロンID").openapi({ description: "サロンのスラッグまたは UUID" }),
    menuIds: z
      .array(uuid("メニューID"), { error: "メニューを1つ以上指定してください。" })
      .min(1, "メニューを1つ以上指定してください。")
      .max(MAX_API_MENUS, `メニューは${MAX_API_MENUS}つまで指定できます。`)
      .refine((ids) => new Set(ids).size === ids.length, "同じメニューが2回指定されています。"),
    staffId: ref("スタイリストID")
      .nullable()
      .optional()
      .openapi({ description: "スタイリストのスラッグまたは UUID。null または省略で指名なし" }),
    couponId: uuid("クーポンID")
      .nullable()
      .optional()
      .openapi({ description: "適用するクーポンの UUID（条件はサーバーが確認します）" }),
    start: z.iso
      .datetime({
        offset: true,
        error: "開始日時は ISO 8601 形式で指定してください（例：2026-12-01T10:00:00+09:00）。",
      })
      .openapi({ example: "2026-12-01T10:00:00+09:00" }),
  })
  .openapi("HoldRequest");

export const holdSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "仮押さえ（予約）の UUID。POST /api/bookings に渡します" }),
    salonId: z.string(),
    staffId: z.string(),
    staffRequested: z.boolean(),
    startsAt: z.string(),
    endsAt: z.string(),
    totalPrice: z.number().int().openapi({ description: "合計（円、税込）。指名料を含みます" }),
    nominationFee: z.number().int().openapi({
      description:
        "指名料（円、税込）。totalPrice に含まれます。指名なし・指名料のないスタイリストは 0",
      example: 0,
    }),
    expiresAt: z.string().openapi({ description: "この時刻を過ぎると仮押さえは消えます" }),
  })
  .openapi("Hold");

// The same field rules as the booking form.
const contactSchema = z.object({
  name: personName("お名前"),
  kana: kanaName("フリガナ"),
  phone: phoneNumber(),
  email: emailAddress(),
});

export const bookingRequestSchema = z
  .object({
    holdId: uuid("仮押さえID"),
    contact: contactSchema.optional().openapi({
      description: "連絡先。省略すると会員情報の名前・フリガナ・電話番号とメールアドレスを使います",
    }),
    notes: z.string().max(500, "ご要望は500文字以内で入力してください。").default(""),
    policyConsent: z.boolean().default(false).openapi({
      description:
        "サロンのお支払い・キャンセルポリシーへの同意。ポリシーのあるサロンでは true が必要です（ないと 400 policy_consent_required）。内容は GET /api/bookings/{id} の paymentPolicy に保存されます",
    }),
    student: z.boolean().default(false).openapi({
      description:
        "学生であることの申告（学割クーポン）。学割クーポンで予約するときは true が必要です（ないと 400 coupon_not_applicable）。サロンに伝わります",
    }),
  })
  .openapi("BookingRequest");

export const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{8,200}$/, "Idempotency-Key は8〜200文字の英数字・記号で指定してください。")
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description: "同じキーでの再送は同じ予約を返します（2回目以降は 200）",
      example: "3f9c2a7e-5d1b-4c8e-9a0f-1b2c3d4e5f60",
    }),
});

/** The policy stored on a booking (common/payment-policy.ts, decision 0075). */
export const policySnapshotSchema = z
  .object({
    version: z.literal(1),
    mode: z.enum(paymentModes).openapi({
      description:
        "none（なし）/ full（全額事前決済）/ deposit（予約金）/ card_only（カード登録のみ）",
    }),
    deposit: z
      .object({ kind: z.enum(depositKinds), value: z.number().int() })
      .nullable()
      .openapi({ description: "予約金: percent（予約金額の%）または yen（円）" }),
    paymentRequired: z
      .boolean()
      .openapi({ description: "false: 対象外のメニュー・クーポンのため店頭払い" }),
    bookedAmount: z.number().int().openapi({ description: "キャンセル料の基準額（円）" }),
    dueAtBooking: z.number().int().openapi({
      description:
        "ご予約時にオンライン決済で請求される額（円）：全額事前決済・予約金。カード登録のみ・対象外は0（ご予約時の請求なし）",
    }),
    fees: z.array(
      z.object({
        window: z
          .enum(feeWindows)
          .openapi({ description: "day_before（前日）/ same_day（当日）/ no_show（無断）" }),
        percent: z.number().int(),
        amount: z.number().int().openapi({ description: "円" }),
        from: z
          .string()
          .nullable()
          .openapi({ description: "この料金がかかり始める時刻（サロンの暦日の0:00）" }),
        date: z
          .string()
          .nullable()
          .openapi({ description: "サロンの所在地での日付（YYYY-MM-DD）" }),
        begunAtBooking: z.boolean(),
      }),
    ),
    timeZone: z.string(),
    note: z.string(),
    lines: z.array(z.string()).openapi({ description: "お客様に表示した案内文" }),
    agreedAt: z.string(),
  })
  .openapi("PaymentPolicySnapshot");

/** One payments row of a booking, as the provider answered it (decisions 0078, 0083). */
export const bookingPaymentSchema = z
  .object({
    id: z.string(),
    kind: z.enum(paymentKinds).openapi({
      description:
        "deposit（予約金）/ full（事前決済・全額）/ card（カード登録、請求なし）/ fee（キャンセル料）/ refund（返金）",
    }),
    amount: z.number().int().openapi({ description: "円。card は 0", example: 1100 }),
    status: z.enum(paymentRowStatuses).openapi({
      description:
        "open（お支払い待ち）/ succeeded（完了）/ expired（期限切れ）/ failed（失敗）/ refunded（返金済み、返金額は refund の行）",
    }),
    at: z.string().openapi({ description: "完了した時刻（未完了は手続きを始めた時刻）" }),
  })
  .openapi("BookingPayment");

export const bookingPaymentsSchema = z.array(bookingPaymentSchema).openapi({
  description:
    "この予約のお支払い・返金（古い順）。手続き前の行は含みません。お支払いのない予約は空の配列",
});

export const bookingSchema = z
  .object({
    id: z.string(),
    bookingNumber: z.string().openapi({ example: "7KQ2-M9XD" }),
    status: z.string().openapi({
      description:
        "held / confirmed / cancelled_by_user / cancelled_by_salon / completed / no_show",
    }),
    approval: z.enum(["pending", "approved", "refused"]).nullable().openapi({
      description:
        "承認制のサロン（仮予約）: pending（サロンの承認待ち。status は confirmed で時間は確保済み）/ approved（承認済み）/ refused（お断り。status は cancelled_by_salon）。承認制でなければ null",
    }),
    statusLabel: z.string().openapi({
      description: "状態の表示名。承認待ちの間は「仮予約（サロンの承認待ち）」",
      example: "予約確定",
    }),
    startsAt: z.string(),
    endsAt: z.string(),
    totalPrice: z.number().int().openapi({
      description: "合計（円、税込）。クーポン適用後のメニュー料金に指名料を足したもの",
    }),
    nominationFee: z.number().int().openapi({
      description:
        "指名料（円、税込）。totalPrice に含まれます。指名なし・指名料のないスタイリストは 0",
      example: 0,
    }),
    staffRequested: z.boolean(),
    salon: z.object({ id: z.string(), slug: z.string(), name: z.string(), timeZone: z.string() }),
    staff: z.object({ slug: z.string(), name: z.string() }),
    menus: z.array(
      z.object({
        menuId: z.string(),
        name: z.string(),
        price: z.number().int(),
        durationMinutes: z.number().int(),
      }),
    ),
    customer: z.object({
      name: z.string(),
      kana: z.string(),
      phone: z.string(),
      email: z.string(),
    }),
    notes: z.string(),
    paymentPolicy: policySnapshotSchema.nullable().openapi({
      description:
        "予約時に同意したお支払い・キャンセルポリシー（その後のサロンの変更は反映されません）。ポリシーがなければ null",
    }),
    payments: bookingPaymentsSchema,
    cancelledAt: z.string().nullable(),
    version: z.number().int().openapi({
      description:
        "変更のたびに増えます。POST /api/bookings/{id}/reschedule に渡すと、その後に変更された予約には 409（booking_changed）",
    }),
  })
  .openapi("Booking");

export const bookingListSchema = z
  .object({ upcoming: z.array(bookingSchema), past: z.array(bookingSchema) })
  .openapi("BookingList");

export const cancelRequestSchema = z
  .object({
    reason: z.string().max(500, "キャンセル理由は500文字以内で入力してください。").default(""),
  })
  .openapi("CancelRequest");

export const favoriteSalonSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    nameKana: z.string(),
    genre: z.string(),
    catchCopy: z.string(),
    areaName: z.string(),
    stationName: z.string().nullable(),
    access: z.string(),
    ratingAverage: z.number(),
    reviewCount: z.number().int(),
    priceMin: z.number().int(),
    photoUrl: z.string().nullable(),
    photoAlt: z.string().nullable(),
  })
  .openapi("FavoriteSalon");

export const favoriteStateSchema = z
  .object({ salonId: z.string(), favorite: z.boolean() })
  .openapi("FavoriteState");

/** Every success body is `{ data: … }`, as GET /api/accounts answers. */
export const envelope = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
