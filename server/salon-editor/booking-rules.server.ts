import { and, eq, isNull } from "drizzle-orm";
import { changedFields, recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { salonBookingSettings } from "../db/schema";
import { type BookingRules, bookingRulesDefaults } from "./booking-rules";

/**
 * A salon's booking rules, read and written (decision 0048): the one place
 * both doors (the admin editor's 基本情報 tab, salon-basic-info-write, and
 * the owner's 設定 page, server/owner/booking-settings.server.ts) store
 * them, with the same audit entry (salon.booking_settings).
 */

/** The stored rules; a salon without a settings row has the defaults. */
export async function readBookingRules(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<BookingRules> {
  const [row] = await db
    .select({
      slotStepMinutes: salonBookingSettings.slotStepMinutes,
      leadTimeMinutes: salonBookingSettings.leadTimeMinutes,
      bookingWindowDays: salonBookingSettings.bookingWindowDays,
      cancellationCutoffHours: salonBookingSettings.cancellationCutoffHours,
      bufferBeforeMinutes: salonBookingSettings.bufferBeforeMinutes,
      bufferAfterMinutes: salonBookingSettings.bufferAfterMinutes,
      maxLiveBookingsPerCustomer: salonBookingSettings.maxLiveBookingsPerCustomer,
      dailyLimitPerStaff: salonBookingSettings.dailyLimitPerStaff,
      sameDayCutoff: localTime(salonBookingSettings.sameDayCutoff),
      holdMinutes: salonBookingSettings.holdMinutes,
      waitlistOfferMinutes: salonBookingSettings.waitlistOfferMinutes,
      closedOnPublicHolidays: salonBookingSettings.closedOnPublicHolidays,
      requiresApproval: salonBookingSettings.requiresApproval,
      approvalAnswerHours: salonBookingSettings.approvalAnswerHours,
    })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return row ? { ...row, sameDayCutoff: row.sameDayCutoff ?? null } : { ...bookingRulesDefaults };
}

/**
 * Stores the rules inside the edit's transaction and answers what changed
 * (null: nothing). A row left with every column at its default is deleted:
 * no row means the defaults (decision 0009), so a salon on them keeps
 * following them. The notice-mail columns (notice-settings.server.ts)
 * share the row and are kept.
 */
export async function writeBookingRules(
  tx: Database,
  salonId: string,
  rules: BookingRules,
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> } | null> {
  const before = await readBookingRules(tx, salonId);
  const changes = changedFields(before, rules);
  if (!changes) return null;
  await tx
    .insert(salonBookingSettings)
    .values({ salonId, ...rules })
    .onConflictDoUpdate({ target: salonBookingSettings.salonId, set: rules });
  const d = bookingRulesDefaults;
  const s = salonBookingSettings;
  await tx
    .delete(s)
    .where(
      and(
        eq(s.salonId, salonId),
        eq(s.slotStepMinutes, d.slotStepMinutes),
        eq(s.leadTimeMinutes, d.leadTimeMinutes),
        eq(s.bookingWindowDays, d.bookingWindowDays),
        eq(s.cancellationCutoffHours, d.cancellationCutoffHours),
        eq(s.bufferBeforeMinutes, d.bufferBeforeMinutes),
        eq(s.bufferAfterMinutes, d.bufferAfterMinutes),
        isNull(s.maxLiveBookingsPerCustomer),
        isNull(s.dailyLimitPerStaff),
        isNull(s.sameDayCutoff),
        eq(s.holdMinutes, d.holdMinutes),
        eq(s.waitlistOfferMinutes, d.waitlistOfferMinutes),
        eq(s.closedOnPublicHolidays, d.closedOnPublicHolidays),
        eq(s.requiresApproval, d.requiresApproval),
        eq(s.approvalAnswerHours, d.approvalAnswerHours),
        eq(s.noticeMailEnabled, true),
        eq(s.noticeEmail, ""),
      ),
    );
  return changes;
}

/** The audit entry of a change of the rules: the changed fields before and after, and who. */
export async function auditBookingRules(
  tx: Database,
  salonId: string,
  changes: { before: Record<string, unknown>; after: Record<string, unknown> },
  actorUserId: string,
  now: Date,
) {
  await recordAudit(
    tx,
    {
      actorUserId,
      action: "salon.booking_settings",
      targetType: "salon",
      targetId: salonId,
      salonId,
      before: changes.before,
      after: changes.after,
    },
    now,
  );
}
