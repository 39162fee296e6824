import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { auditLog, salons, users } from "../db/schema";

/**
 * The audit actions in use. The salon editor (issue 16, points 4–7 and 9)
 * adds "salon.create", "salon.update", "salon.publish", "salon.suspend" and
 * "redirect_rule.*" with the same recordAudit call.
 */
export const auditActions = {
  "owner.invite": "オーナー招待",
  "owner.invitation_accept": "招待の承認",
  "owner.salon_unlink": "担当サロンの解除",
  "owner.suspend": "オーナーの利用停止",
  "owner.reinstate": "オーナーの利用再開",
  "user.role_change": "権限の変更",
  // The salon's staff (server/owner/members.server.ts, decision 0045).
  "member.invite": "スタッフの招待",
  "member.invitation_accept": "スタッフ招待の承認",
  "member.invitation_cancel": "スタッフ招待の取り消し",
  "member.role_change": "スタッフの役割の変更",
  "member.remove": "スタッフの削除",
  // The salon editor's 基本情報 tab (salon-create, salon-update, salon-status, salon-delete.server.ts).
  "salon.create": "サロンの登録",
  "salon.update": "サロン情報の更新",
  "salon.publish": "サロンの公開",
  "salon.suspend": "サロンの利用停止",
  "salon.unpublish": "サロンを下書きに戻す",
  "salon.delete": "サロンの削除",
  "salon.slug_redirect": "旧URLからの転送",
  // The salon's own back office (server/owner/).
  "salon.notice_settings": "予約通知メールの設定",
  "salon.booking_settings": "予約の設定",
  "salon.payment_policy": "お支払いとキャンセル料の設定",
  "customers.export": "顧客一覧の書き出し（CSV）",
  "bookings.export": "予約一覧の書き出し（CSV）",
  "salon_photo.add": "写真の追加",
  "salon_photo.update": "写真の説明の変更",
  "salon_photo.reorder": "写真の並べ替え",
  "salon_photo.delete": "写真の削除",
  "redirect_rule.create": "リダイレクトの追加",
  "redirect_rule.update": "リダイレクトの変更",
  "redirect_rule.delete": "リダイレクトの削除",
  // The salon editor's スタッフ, メニュー and クーポン tabs (salon-staff/menus/coupons.server.ts).
  "staff.create": "スタッフの追加",
  "staff.update": "スタッフの変更",
  "staff.reorder": "スタッフの並べ替え",
  "staff.retire": "スタッフの退職",
  "staff.reinstate": "スタッフの復帰",
  "staff.delete": "スタッフの削除",
  "staff.schedule_save": "勤務パターンの保存",
  "staff.schedule_delete": "勤務パターンの削除",
  "staff.exception_add": "勤務の例外の追加",
  "staff.exception_delete": "勤務の例外の削除",
  // Schedules of the whole salon (server/owner/schedules.server.ts, decision 0046).
  "salon.closure_add": "臨時休業の追加",
  "salon.closure_remove": "臨時休業の削除",
  "salon.opening_hours": "営業時間・定休日の変更",
  "salon.holiday_rule": "祝日の休業設定の変更",
  "schedule.stranding_override": "予約が残る勤務変更の適用",
  "schedule_request.create": "勤務変更の申請",
  "schedule_request.withdraw": "勤務変更の申請の取り下げ",
  "schedule_request.approve": "勤務変更の申請の承認",
  "schedule_request.decline": "勤務変更の申請の見送り",
  "menu.create": "メニューの追加",
  "menu.update": "メニューの変更",
  "menu.reorder": "メニューの並べ替え",
  "menu.retire": "メニューの掲載終了",
  "menu.reinstate": "メニューの再掲載",
  "menu.delete": "メニューの削除",
  "coupon.create": "クーポンの追加",
  "coupon.update": "クーポンの変更",
  "coupon.retire": "クーポンの配布終了",
  "coupon.delete": "クーポンの削除",
  // 会計 at the counter (server/owner/checkout.server.ts, products.server.ts; decision 0079).
  "checkout.create": "会計の登録",
  "checkout.void": "会計の取消",
  "product.create": "店販商品の追加",
  "product.update": "店販商品の変更",
  "salon.invoice_number": "適格請求書発行事業者の登録番号の変更",
  // 日計 (server/owner/day-close.server.ts; decision 0082).
  "dayclose.close": "日計の締め",
  "dayclose.reopen": "日計の締めの取り消し",
  // Fees and refunds of a booking (server/owner/booking-money.server.ts, decision 0080).
  "payment.refund": "返金",
  "payment.waive": "キャンセル料の免除（請求しない）",
  "payment.no_show_taken_back": "無断キャンセルの取り消しによるキャンセル料の返金・取りやめ",
  // Moderation of reviews (server/admin/review-moderation.server.ts, decision 0056).
  "review.hide": "口コミの非表示",
  "review.restore": "口コミの再表示",
  "review.keep": "口コミの通報を問題なしで解決",
  // The payments' reconciliation (server/admin/payment-discrepancies.server.ts, decision 0081).
  "payment_discrepancy.resolve": "決済の差異を解決済みに",
  "payments.reconcile": "決済の照合の実行",
  // The salon's webhooks (server/webhooks/endpoints.server.ts, decision 0086).
  "webhook.create": "Webhookの送信先の追加",
  "webhook.rotate": "Webhookの署名シークレットの更新",
  "webhook.disable": "Webhookの送信先の停止",
  "webhook.enable": "Webhookの送信先の再開",
  "webhook.delete": "Webhookの送信先の削除",
  "webhook.replay": "Webhookの再送",
} as const;
export type AuditAction = keyof typeof auditActions;

export type AuditEntry = {
  actorUserId: string | null;
  action: AuditAction;
  targetType:
    | "user"
    | "salon"
    | "invitation"
    | "photo"
    | "redirect_rule"
    | "schedule_request"
    | "staff"
    | "menu"
    | "coupon"
    | "review"
    | "booking"
    | "product"
    | "payment_discrepancy"
    | "webhook_endpoint";
  targetId: string;
  salonId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/** Only the fields that changed, as before/after for an update's entry (null when nothing did). */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) {
      was[key] = before[key] ?? null;
      now[key] = after[key] ?? null;
    }
  }
  return Object.keys(now).length > 0 ? { before: was, after: now } : null;
}

/**
 * Writes one entry. Takes the transaction of the change it records (never
 * the bare database), so the entry and the change commit or roll back together.
 */
export async function recordAudit(tx: Database, entry: AuditEntry, now: Date) {
  await tx.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    salonId: entry.salonId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: now,
  });
}

/** The user an entry is about (a second join on users). */
const targets = alias(users, "targets");

export type AuditFilter = { salonId?: string; actorUserId?: string; limit?: number };

/** The newest entries, with the actor's and salon's names for display. */
export async function listAudit(db: Database, filter: AuditFilter = {}) {
  const conditions: SQL[] = [];
  if (filter.salonId) {
    // An entry about several salons (an invitation) names them in after.salonIds.
    const several = sql`${auditLog.after} -> 'salonIds' @> ${JSON.stringify([filter.salonId])}::jsonb`;
    const either = or(eq(auditLog.salonId, filter.salonId), several);
    if (either) conditions.push(either);
  }
  if (filter.actorUserId) conditions.push(eq(auditLog.actorUserId, filter.actorUserId));
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      salonId: auditLog.salonId,
      salonName: salons.name,
      salonSlug: salons.slug,
      targetEmail: targets.email,
      actorUserId: auditLog.actorUserId,
      actorEmail: users.email,
      actorName: users.name,
      before: auditLog.before,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .leftJoin(targets, and(eq(auditLog.targetType, "user"), eq(targets.id, auditLog.targetId)))
    .leftJoin(salons, eq(salons.id, auditLog.salonId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(filter.limit ?? 20);
  return rows.map((row) => ({
    ...row,
    label: auditActions[row.action as AuditAction] ?? row.action,
  }));
}

/** Administrators, for the "by admin" filter. */
export function listAdmins(db: Database) {
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(users.email);
}

/** Salons that appear in the log, for the "by salon" filter (not every salon of the site). */
export function listAuditedSalons(db: Database) {
  return db
    .selectDistinct({ id: salons.id, name: salons.name })
    .from(auditLog)
    .innerJoin(salons, eq(salons.id, auditLog.salonId))
    .orderBy(salons.name, salons.id)
    .limit(500);
}
