import { eq } from "drizzle-orm";
import {
  type DepositKind,
  depositKinds,
  noPolicy,
  type PaymentMode,
  type PaymentPolicy,
  paymentModes,
  policyBounds,
} from "../../common/payment-policy";
import { changedFields, recordAudit } from "../audit/audit";
import { paymentPolicyOf } from "../bookings/payment-policy.server";
import type { Database } from "../db/client";
import { salonPaymentPolicies } from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";

/**
 * The salon's お支払いとキャンセル料 (issue 40, §1; decision 0075) on the
 * owner's 設定 page (settings.manage): read, checked with a Japanese
 * message per field, saved with an audit entry of what changed. Existing
 * bookings keep the policy they were made under (bookings.payment_policy).
 */

export type PaymentPolicyField =
  | "mode"
  | "depositKind"
  | "depositValue"
  | "sameDayPercent"
  | "dayBeforePercent"
  | "noShowPercent"
  | "note";

/** The form as typed (text), to show it again after a refusal. */
export type PaymentPolicyValues = Record<PaymentPolicyField, string>;
export type PaymentPolicyErrors = Partial<Record<PaymentPolicyField | "form", string>>;

export type PaymentPolicySaveResult =
  | { ok: true; policy: PaymentPolicy }
  | { ok: false; errors: PaymentPolicyErrors; values: PaymentPolicyValues };

/** The policy as the form shows it. */
export function paymentPolicyValues(policy: PaymentPolicy): PaymentPolicyValues {
  return {
    mode: policy.mode,
    depositKind: policy.deposit?.kind ?? "percent",
    depositValue: policy.deposit ? String(policy.deposit.value) : "",
    sameDayPercent: String(policy.sameDayPercent),
    dayBeforePercent: String(policy.dayBeforePercent),
    noShowPercent: String(policy.noShowPercent),
    note: policy.note,
  };
}

const fields: PaymentPolicyField[] = [
  "mode",
  "depositKind",
  "depositValue",
  "sameDayPercent",
  "dayBeforePercent",
  "noShowPercent",
  "note",
];

/** The posted fields as text, each bounded so a huge post cannot be echoed back. */
export function paymentPolicyFormValues(form: FormData): PaymentPolicyValues {
  const values = {} as PaymentPolicyValues;
  for (const field of fields) {
    const value = form.get(field);
    values[field] = typeof value === "string" ? value.slice(0, field === "note" ? 1000 : 20) : "";
  }
  return values;
}

/** A whole number typed in any width ("５０", "1,000", "50%"); null when it is not one. */
function wholeNumber(text: string): number | null {
  const cleaned = text.normalize("NFKC").replace(/[,\s%円]/gu, "");
  return /^\d{1,9}$/.test(cleaned) ? Number(cleaned) : null;
}

const feeLabels = {
  sameDayPercent: "当日のキャンセル料",
  dayBeforePercent: "前日のキャンセル料",
  noShowPercent: "無断キャンセルのキャンセル料",
} as const;

/** Checks the form; every refusal says in Japanese what to type instead. */
export function parsePaymentPolicy(
  values: PaymentPolicyValues,
): { ok: true; policy: PaymentPolicy } | { ok: false; errors: PaymentPolicyErrors } {
  const errors: PaymentPolicyErrors = {};
  const mode = (paymentModes as readonly string[]).includes(values.mode)
    ? (values.mode as PaymentMode)
    : null;
  if (!mode) errors.mode = "事前決済の方法を選んでください。";
  let deposit: PaymentPolicy["deposit"] = null;
  if (mode === "deposit") {
    const kind = (depositKinds as readonly string[]).includes(values.depositKind)
      ? (values.depositKind as DepositKind)
      : null;
    const value = wholeNumber(values.depositValue);
    const { depositPercent: pct, depositYen: yen } = policyBounds;
    if (!kind) errors.depositKind = "予約金の単位（%または円）を選んでください。";
    else if (values.depositValue.trim() === "") errors.depositValue = "予約金を入力してください。";
    else if (value === null) errors.depositValue = "予約金は半角数字（整数）で入力してください。";
    else if (kind === "percent" && (value < pct.min || value > pct.max)) {
      errors.depositValue = `予約金は${pct.min}〜${pct.max}%の整数で入力してください。`;
    } else if (kind === "yen" && (value < yen.min || value > yen.max)) {
      errors.depositValue = `予約金は${yen.min}〜${yen.max.toLocaleString("ja-JP")}円の整数で入力してください。`;
    } else deposit = { kind, value };
  }
  const fees = {} as Record<keyof typeof feeLabels, number>;
  for (const field of Object.keys(feeLabels) as (keyof typeof feeLabels)[]) {
    const text = values[field].trim();
    // Left empty: no fee for that window.
    const value = text === "" ? 0 : wholeNumber(text);
    if (value === null) {
      errors[field] = `${feeLabels[field]}は0〜100の整数（%）で入力してください。`;
    } else if (value > policyBounds.feePercent.max) {
      errors[field] =
        `${feeLabels[field]}は100%以下で入力してください（ご予約金額を超える請求はできません）。`;
    } else fees[field] = value;
  }
  const note = values.note.trim().replace(/\s+/gu, " ");
  if (note.length > policyBounds.noteLength) {
    errors.note = `補足は${policyBounds.noteLength}文字以内で入力してください（いま${note.length}文字）。`;
  }
  if (Object.keys(errors).length > 0 || !mode) return { ok: false, errors };
  return { ok: true, policy: { mode, deposit, ...fees, note } };
}

/** Flat, for the audit entry's before/after. */
function auditShape(policy: PaymentPolicy) {
  return {
    mode: policy.mode,
    depositKind: policy.deposit?.kind ?? null,
    depositValue: policy.deposit?.value ?? null,
    sameDayPercent: policy.sameDayPercent,
    dayBeforePercent: policy.dayBeforePercent,
    noShowPercent: policy.noShowPercent,
    note: policy.note,
  };
}

/** Validates and saves the policy, with an audit entry of the changed fields (who, when). */
export async function savePaymentPolicy(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<PaymentPolicySaveResult> {
  const values = paymentPolicyFormValues(form);
  const parsed = parsePaymentPolicy(values);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, values };
  const { policy } = parsed;
  const salonId = access.salon.id;
  const row = {
    mode: policy.mode,
    depositKind: policy.deposit?.kind ?? null,
    depositValue: policy.deposit?.value ?? null,
    sameDayPercent: policy.sameDayPercent,
    dayBeforePercent: policy.dayBeforePercent,
    noShowPercent: policy.noShowPercent,
    note: policy.note,
  };
  await db.transaction(async (tx) => {
    // The row locked while compared, so two saves audit each change once.
    const [current] = await tx
      .select({ salonId: salonPaymentPolicies.salonId })
      .from(salonPaymentPolicies)
      .where(eq(salonPaymentPolicies.salonId, salonId))
      .for("update");
    const before = current ? await paymentPolicyOf(tx, salonId) : noPolicy;
    await tx
      .insert(salonPaymentPolicies)
      .values({ salonId, ...row })
      .onConflictDoUpdate({ target: salonPaymentPolicies.salonId, set: row });
    const changed = changedFields(auditShape(before), auditShape(policy));
    if (changed) {
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "salon.payment_policy",
          targetType: "salon",
          targetId: salonId,
          salonId,
          ...changed,
        },
        now,
      );
    }
  });
  return { ok: true, policy };
}
