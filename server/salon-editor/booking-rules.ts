import { z } from "zod";
import { APPROVAL_ANSWER_HOURS_DEFAULT } from "../../common/approval";
import {
  type BookingRuleField,
  bookingRuleFields,
  bookingRuleNumbers,
} from "../../common/booking-rules-fields";
import { slotStepChoices } from "../../common/salon-form-fields";
import { WAITLIST_OFFER_MINUTES_DEFAULT } from "../../common/waitlist";
import { bookingSettingsDefaults } from "../bookings/settings";

/**
 * A salon's booking rules as a form (decision 0048): one schema for both
 * doors, the admin editor's 基本情報 tab (salon-form.ts merges the shape)
 * and the owner's 設定 page. Pure: booking-rules.server.ts reads and writes
 * them.
 */

export type BookingRules = {
  slotStepMinutes: number;
  leadTimeMinutes: number;
  bookingWindowDays: number;
  cancellationCutoffHours: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Confirmed future bookings (and live holds) one customer may hold here; null: no limit. */
  maxLiveBookingsPerCustomer: number | null;
  dailyLimitPerStaff: number | null;
  sameDayCutoff: string | null;
  holdMinutes: number;
  /** How long a waiting-list offer holds a freed time for its visitor (issue 30, point 4). */
  waitlistOfferMinutes: number;
  closedOnPublicHolidays: boolean;
  /** New web bookings wait for the salon's answer (仮予約); what follows is decision 0051's. */
  requiresApproval: boolean;
  /** Hours the salon has to answer a 仮予約 before it lapses (decision 0071). */
  approvalAnswerHours: number;
};

const d = bookingSettingsDefaults;
/** The rules of a salon without a settings row. */
export const bookingRulesDefaults: Readonly<BookingRules> = Object.freeze({
  slotStepMinutes: d.slotStepMinutes,
  leadTimeMinutes: d.leadTimeMinutes,
  bookingWindowDays: d.bookingWindowDays,
  cancellationCutoffHours: d.cancellationCutoffHours,
  bufferBeforeMinutes: d.bufferBeforeMinutes,
  bufferAfterMinutes: d.bufferAfterMinutes,
  maxLiveBookingsPerCustomer: null,
  dailyLimitPerStaff: d.dailyLimitPerStaff,
  sameDayCutoff: d.sameDayCutoff,
  holdMinutes: d.holdMinutes,
  waitlistOfferMinutes: WAITLIST_OFFER_MINUTES_DEFAULT,
  closedOnPublicHolidays: d.closedOnHolidays,
  requiresApproval: false,
  approvalAnswerHours: APPROVAL_ANSWER_HOURS_DEFAULT,
});

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

type NumberField = keyof typeof bookingRuleNumbers;

const wholeNumber = (field: NumberField) => {
  const { label, min, max } = bookingRuleNumbers[field];
  return z
    .string()
    .transform((text) => text.normalize("NFKC").trim())
    .refine((text) => /^\d{1,6}$/.test(text), `${label}は半角数字で入力してください。`)
    .transform(Number)
    .refine(
      (value) => value >= min && value <= max,
      `${label}は${min}〜${max}の範囲で入力してください。`,
    );
};

/** Empty means `empty` (no limit, or none); otherwise a bounded whole number. */
const optionalWholeNumber = <T extends number | null>(field: NumberField, empty: T) =>
  z.string().transform((text, ctx): number | T => {
    const trimmed = text.normalize("NFKC").trim();
    if (trimmed === "") return empty;
    const parsed = wholeNumber(field).safeParse(trimmed);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? field });
      return z.NEVER;
    }
    return parsed.data;
  });

const checkbox = z.string().transform((value) => value === "on");

/** The Zod shape of the rules' fields, each from its string form value. */
export const bookingRulesShape = {
  slotStepMinutes: z
    .string()
    .transform(Number)
    .refine(
      (step) => (slotStepChoices as readonly number[]).includes(step),
      "予約の時間間隔を選択してください。",
    ),
  leadTimeMinutes: wholeNumber("leadTimeMinutes"),
  bookingWindowDays: wholeNumber("bookingWindowDays"),
  cancellationCutoffHours: wholeNumber("cancellationCutoffHours"),
  // Blank is none: forms from before the field existed post nothing.
  bufferBeforeMinutes: optionalWholeNumber("bufferBeforeMinutes", 0),
  bufferAfterMinutes: wholeNumber("bufferAfterMinutes"),
  maxLiveBookingsPerCustomer: optionalWholeNumber("maxLiveBookingsPerCustomer", null),
  dailyLimitPerStaff: optionalWholeNumber("dailyLimitPerStaff", null),
  sameDayCutoff: z
    .string()
    .trim()
    .refine(
      (text) => text === "" || HHMM.test(text),
      "当日予約の締切時刻は「17:00」の形で入力してください。",
    )
    .transform((text) => (text === "" ? null : text)),
  holdMinutes: wholeNumber("holdMinutes"),
  // Blank is the default: forms from before the field existed post nothing.
  waitlistOfferMinutes: optionalWholeNumber("waitlistOfferMinutes", WAITLIST_OFFER_MINUTES_DEFAULT),
  closedOnPublicHolidays: checkbox,
  requiresApproval: checkbox,
  // Blank is the default: forms from before the field existed post nothing.
  approvalAnswerHours: optionalWholeNumber("approvalAnswerHours", APPROVAL_ANSWER_HOURS_DEFAULT),
} satisfies Record<BookingRuleField, z.ZodType>;

const bookingRulesSchema = z.object(bookingRulesShape);

/** The rules' part of a form, as strings (long values cut, files ignored). */
export function bookingRulesFormValues(form: FormData): Record<BookingRuleField, string> {
  const out = {} as Record<BookingRuleField, string>;
  for (const key of bookingRuleFields) {
    const value = form.get(key);
    out[key] = typeof value === "string" ? value.replace(/\0/g, "").slice(0, 20) : "";
  }
  return out;
}

/** The stored rules as the form's strings. */
export function bookingRulesValues(rules: BookingRules): Record<BookingRuleField, string> {
  const optional = (value: number | null) => (value === null ? "" : String(value));
  return {
    slotStepMinutes: String(rules.slotStepMinutes),
    leadTimeMinutes: String(rules.leadTimeMinutes),
    bookingWindowDays: String(rules.bookingWindowDays),
    cancellationCutoffHours: String(rules.cancellationCutoffHours),
    bufferBeforeMinutes: String(rules.bufferBeforeMinutes),
    bufferAfterMinutes: String(rules.bufferAfterMinutes),
    maxLiveBookingsPerCustomer: optional(rules.maxLiveBookingsPerCustomer),
    dailyLimitPerStaff: optional(rules.dailyLimitPerStaff),
    sameDayCutoff: rules.sameDayCutoff ?? "",
    holdMinutes: String(rules.holdMinutes),
    waitlistOfferMinutes: String(rules.waitlistOfferMinutes),
    closedOnPublicHolidays: rules.closedOnPublicHolidays ? "on" : "",
    requiresApproval: rules.requiresApproval ? "on" : "",
    approvalAnswerHours: String(rules.approvalAnswerHours),
  };
}

export type BookingRulesErrors = Partial<Record<BookingRuleField | "form", string>>;

/** The form's rules, or a Japanese message per field. */
export function parseBookingRules(
  values: Record<BookingRuleField, string>,
): { ok: true; rules: BookingRules } | { ok: false; errors: BookingRulesErrors } {
  const parsed = bookingRulesSchema.safeParse(values);
  if (parsed.success) return { ok: true, rules: parsed.data };
  const errors: BookingRulesErrors = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? "form") as BookingRuleField;
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The rules among a parsed form's fields (the admin 基本情報 input carries them too). */
export function bookingRulesOf(input: BookingRules): BookingRules {
  const out = {} as Record<BookingRuleField, unknown>;
  for (const key of bookingRuleFields) out[key] = input[key];
  return out as BookingRules;
}
