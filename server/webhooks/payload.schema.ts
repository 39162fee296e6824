import { z } from "@hono/zod-openapi";
import { bookingSources, bookingStatuses, type webhookEventTypes } from "../db/schema";

/**
 * The webhooks' payloads as the OpenAPI document's `webhooks` section gives
 * them (decision 0086); the integration tests parse what a receiver got with
 * these schemas, so the document and the bodies cannot drift apart.
 */

const isoTime = z.string().openapi({ format: "date-time", example: "2026-12-01T01:00:00.000Z" });
const uuidText = z.string().openapi({ format: "uuid" });

const envelope = <T extends z.ZodType>(type: (typeof webhookEventTypes)[number], data: T) =>
  z.object({
    type: z.literal(type).openapi({ description: "イベントの種類" }),
    version: z.literal(1).openapi({
      description: "ペイロードの版。形が変わるときに上がります（受信側は data の前に確認）。",
    }),
    timestamp: isoTime.openapi({ description: "変更があった時刻" }),
    salonId: uuidText.openapi({ description: "サロンID" }),
    data,
  });

export const webhookBookingSchema = z
  .object({
    id: uuidText,
    number: z.string().openapi({ description: "予約番号" }),
    status: z.enum(bookingStatuses),
    approval: z
      .string()
      .nullable()
      .openapi({ description: "仮予約の承認状態（承認制でなければ null）" }),
    source: z.enum(bookingSources),
    startsAt: isoTime,
    endsAt: isoTime,
    staffId: uuidText,
    staffRequested: z.boolean().openapi({ description: "指名あり" }),
    couponId: uuidText.nullable(),
    totalPrice: z.number().int().openapi({ description: "合計（円、税込）" }),
    menus: z.array(
      z.object({
        id: uuidText,
        name: z.string(),
        price: z.number().int(),
        durationMinutes: z.number().int(),
      }),
    ),
    customer: z.object({
      id: uuidText.nullable().openapi({ description: "サロンの顧客ID" }),
      name: z.string(),
      kana: z.string(),
      phone: z.string(),
      email: z.string(),
    }),
    cancelledAt: isoTime.nullable(),
    cancelledBy: z.string().nullable(),
  })
  .openapi("WebhookBooking");

const bookingData = z.object({
  change: z.string().openapi({
    description:
      "予約履歴の種類：created, confirmed（承認）, moved, menus_changed, arrived, undone, cancelled, completed, no_show",
  }),
  actor: z.enum(["customer", "salon", "system"]).openapi({ description: "操作した人" }),
  booking: webhookBookingSchema,
});

export const webhookReviewSchema = z
  .object({
    id: uuidText,
    bookingId: uuidText,
    staffId: uuidText.nullable(),
    authorLabel: z.string(),
    rating: z.number().int().min(1).max(5),
    ratings: z.object({
      atmosphere: z.number().int().nullable(),
      service: z.number().int().nullable(),
      technique: z.number().int().nullable(),
      finish: z.number().int().nullable(),
    }),
    title: z.string(),
    body: z.string(),
    visitedOn: z.string().openapi({ format: "date" }),
    createdAt: isoTime,
  })
  .openapi("WebhookReview");

export const webhookCustomerSchema = z
  .object({
    id: uuidText,
    name: z.string(),
    kana: z.string(),
    phone: z.string(),
    email: z.string(),
    hasAccount: z.boolean().openapi({ description: "Salon Navi の会員か" }),
  })
  .openapi("WebhookCustomer");

export const webhookPayloadSchemas = {
  "booking.created": envelope("booking.created", bookingData),
  "booking.changed": envelope("booking.changed", bookingData),
  "booking.cancelled": envelope("booking.cancelled", bookingData),
  "booking.completed": envelope("booking.completed", bookingData),
  "booking.no_show": envelope("booking.no_show", bookingData),
  "customer.created": envelope("customer.created", z.object({ customer: webhookCustomerSchema })),
  "review.posted": envelope("review.posted", z.object({ review: webhookReviewSchema })),
} as const satisfies Record<(typeof webhookEventTypes)[number], z.ZodType>;

export const webhookEventDescriptions: Record<(typeof webhookEventTypes)[number], string> = {
  "booking.created": "予約が作成されたとき（ネット予約の確定、電話・来店の入力、仮予約の申込み）",
  "booking.changed": "予約の日時・スタッフ・メニューの変更、仮予約の承認、来店、操作の取り消し",
  "booking.cancelled": "予約がキャンセルされたとき（お客様・サロン・期限切れ）",
  "booking.completed": "施術完了にしたとき",
  "booking.no_show": "無断キャンセルにしたとき",
  "customer.created": "サロンの顧客として新しく登録されたとき",
  "review.posted": "口コミが投稿されたとき",
};
