import { and, asc, eq } from "drizzle-orm";
import { emailAddress, type FieldErrors } from "../../common/field-rules";
import { policyLines } from "../../common/payment-policy";
import { changedFields, recordAudit } from "../audit/audit";
import { paymentPolicyOf } from "../bookings/payment-policy.server";
import type { Database } from "../db/client";
import { salonBookingSettings, salonOwners, users } from "../db/schema";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import { bookingRulesForm } from "./booking-settings.server";
import { paymentPolicyValues } from "./payment-policy.server";

/**
 * Where the salon hears of its bookings (issue 28, point 7): whether new
 * bookings, cancellations and customers' moves are mailed, and to which
 * address ("" is the salon's owners). A salon without a settings row uses
 * the defaults (mail on, to the owners); saving writes the row with every
 * other column at its default, which is bookingSettingsDefaults.
 */

export type NoticeSettings = { enabled: boolean; email: string };

export async function noticeSettingsOf(db: Database, salonId: string): Promise<NoticeSettings> {
  const [row] = await db
    .select({
      enabled: salonBookingSettings.noticeMailEnabled,
      email: salonBookingSettings.noticeEmail,
    })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return row ?? { enabled: true, email: "" };
}

/** An address, or none ("": the owners'). */
const noticeEmail = emailAddress();

export type NoticeValues = { enabled: boolean; email: string };
export type NoticeSaveResult =
  | { ok: true; settings: NoticeSettings }
  | { ok: false; errors: FieldErrors<"email">; values: NoticeValues };

/** The form as posted: the checkbox is on when present; the address as typed (bounded). */
export function noticeValuesOf(form: FormData): NoticeValues {
  const email = form.get("email");
  return {
    enabled: form.get("enabled") === "on",
    email: typeof email === "string" ? email.trim().slice(0, 300) : "",
  };
}

/** Validates and saves, with an audit entry of what changed (who, when). */
export async function saveNoticeSettings(
  db: Database,
  access: SalonAccess,
  values: NoticeValues,
  now: Date,
): Promise<NoticeSaveResult> {
  const parsed = values.email === "" ? null : noticeEmail.safeParse(values.email);
  if (parsed && !parsed.success) {
    return {
      ok: false,
      errors: { email: parsed.error.issues[0]?.message ?? "メールアドレスを確認してください。" },
      values,
    };
  }
  const next = { enabled: values.enabled, email: parsed ? parsed.data.toLowerCase() : "" };
  await db.transaction(async (tx) => {
    const before = await noticeSettingsOf(tx, access.salon.id);
    await tx
      .insert(salonBookingSettings)
      .values({
        salonId: access.salon.id,
        noticeMailEnabled: next.enabled,
        noticeEmail: next.email,
      })
      .onConflictDoUpdate({
        target: salonBookingSettings.salonId,
        set: { noticeMailEnabled: next.enabled, noticeEmail: next.email },
      });
    const changed = changedFields(before, next);
    if (changed) {
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "salon.notice_settings",
          targetType: "salon",
          targetId: access.salon.id,
          salonId: access.salon.id,
          ...changed,
        },
        now,
      );
    }
  });
  return { ok: true, settings: next };
}

/** The owners' addresses, where the mails go without an address of the salon's own. */
async function ownerAddresses(db: Database, salonId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(salonOwners)
    .innerJoin(users, eq(users.id, salonOwners.userId))
    .where(and(eq(salonOwners.salonId, salonId), eq(users.role, "owner")))
    .orderBy(asc(users.email));
  return rows.map((row) => row.email);
}

/**
 * The settings page: the salon, the booking rules (booking-settings.server.ts),
 * the notice settings and where mails go by default, and the payment and
 * cancellation policy (payment-policy.server.ts).
 */
export async function noticeSettingsPage(db: Database, access: SalonAccess, url: URL) {
  const [settings, ownerEmails, bookingRules, paymentPolicy] = await Promise.all([
    noticeSettingsOf(db, access.salon.id),
    ownerAddresses(db, access.salon.id),
    bookingRulesForm(db, access.salon.id),
    paymentPolicyOf(db, access.salon.id),
  ]);
  const saved = url.searchParams.get("saved");
  return {
    salon: ownerPageSalon(access),
    settings,
    ownerEmails,
    bookingRules,
    paymentPolicy: paymentPolicyValues(paymentPolicy),
    /** The text visitors read, generated from the saved numbers. */
    paymentPolicyPreview: policyLines(paymentPolicy),
    saved:
      saved === "1"
        ? ("notice" as const)
        : saved === "rules"
          ? ("rules" as const)
          : saved === "policy"
            ? ("policy" as const)
            : null,
  };
}

/** The page's POST: the form's values, validated and saved. */
export function submitNoticeSettings(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<NoticeSaveResult> {
  return saveNoticeSettings(db, access, noticeValuesOf(form), now);
}
