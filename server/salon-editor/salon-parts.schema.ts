import { z } from "zod";
import { couponTargets } from "../../common/coupon-eligibility";
import { couponDiscountKinds } from "../../common/coupon-pricing";
import { choice, kanaName, requiredText, uuidText } from "../../common/field-rules";
import { isLocalDate } from "../../common/local-time";
import { durationChoices, INTERVALS_PER_DAY, weekdayLabels } from "../../common/salon-parts";
import { isUuid } from "../../common/uuid";
import { scheduleExceptionKinds } from "../db/schema/schedules";

/**
 * The forms of the salon editor's スタッフ, メニュー and クーポン tabs
 * (issue 16, point 4). Every value arrives as text from a form; each rule
 * says in Japanese what to type instead.
 */

/** The salon version the form was loaded with (optimistic concurrency, decision 0018). */
export const versionField = z.coerce
  .number({ error: "画面を読み込み直してから、もう一度保存してください。" })
  .int("画面を読み込み直してから、もう一度保存してください。")
  .min(0, "画面を読み込み直してから、もう一度保存してください。")
  .max(2_147_483_647, "画面を読み込み直してから、もう一度保存してください。");

/** Fields arrive as text ("" when left empty), see fieldsOf in salon-parts.server.ts. */
const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label}は${max}文字以内で入力してください。`);

/** Whole numbers typed in any width, with or without thousands separators ("５,５００"). */
const integerText = (label: string, min: number, max: number, unit: string) =>
  z
    .string({ error: `${label}を入力してください。` })
    .transform((text) => text.normalize("NFKC").replace(/[,\s円分]/gu, ""))
    .refine((text) => text.length > 0, `${label}を入力してください。`)
    .refine((text) => /^\d+$/.test(text), `${label}は半角数字で入力してください。`)
    .transform(Number)
    .refine(
      (value) => value >= min && value <= max,
      `${label}は${min.toLocaleString("ja-JP")}〜${max.toLocaleString("ja-JP")}${unit}で入力してください。`,
    );

const dateText = (label: string) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .refine(isLocalDate, `${label}は「2026-12-01」の形式で入力してください。`);

/** An optional date: empty is null (open-ended). */
const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .catch("")
    .refine(
      (text) => text === "" || isLocalDate(text),
      `${label}は「2026-12-01」の形式で入力してください。`,
    )
    .transform((text) => (text === "" ? null : text));

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A ticked checkbox ("on"). */
const checkbox = z
  .string()
  .optional()
  .catch(undefined)
  .transform((value) => value === "on" || value === "true");

/** An optional "10:00" (5-minute steps; "24:00" as an end), as minutes after midnight; empty is null. */
const optionalTime = (label: string, end = false) =>
  z
    .string()
    .trim()
    .catch("")
    .transform((text) => text.normalize("NFKC"))
    .refine(
      (text) => text === "" || TIME.test(text) || (end && text === "24:00"),
      `${label}は「10:00」の形式で入力してください。`,
    )
    .refine(
      (text) => text === "" || Number(text.slice(3)) % 5 === 0,
      `${label}は5分単位で入力してください（例：10:00、10:05）。`,
    )
    .transform((text) =>
      text === "" ? null : Number(text.slice(0, 2)) * 60 + Number(text.slice(3)),
    );
const timeText = (label: string) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .refine((text) => TIME.test(text), `${label}は「10:00」の形式で入力してください。`)
    .refine(
      (text) => Number(text.slice(3)) % 5 === 0,
      `${label}は5分単位で入力してください（例：10:00、10:05）。`,
    );

const idList = (label: string, max: number) =>
  z
    .array(uuidText(label))
    .max(max, `${label}は${max}件までにしてください。`)
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

// ── Staff ──────────────────────────────────────────────────────────────

/** https:// addresses or a path of this site (/images/…); nothing that could run script. */
const photoUrl = z
  .string()
  .trim()
  .catch("")
  .refine(
    (text) =>
      text === "" ||
      (text.length <= 500 &&
        (/^https:\/\/[^\s"'<>]+$/.test(text) || /^\/[^\s"'<>/][^\s"'<>]*$/.test(text))),
    "写真のURLは https:// で始まるアドレスか、/ で始まるサイト内のパスを入力してください（500文字以内）。",
  );

export const staffSchema = z.object({
  name: requiredText("名前", 50),
  kana: kanaName("フリガナ", 50),
  role: requiredText("役職", 30),
  profile: optionalText("プロフィール", 1000),
  photoUrl,
  yearsOfExperience: z
    .string()
    .catch("")
    .transform((text) => (text.trim() === "" ? "0" : text))
    .pipe(integerText("経験年数", 0, 70, "年")),
  /**
   * 指名料: what choosing this stylist adds to a booking (decision 0047),
   * whole yen 0–100,000 (the column's check); empty is none.
   */
  nominationFee: z
    .string()
    .catch("")
    .transform((text) => (text.trim() === "" ? "0" : text))
    .pipe(integerText("指名料", 0, 100_000, "円")),
  /** Comma- or 、-separated. */
  specialties: z
    .string()
    .catch("")
    .transform((text) =>
      text
        .normalize("NFKC")
        .split(/[,、]/u)
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((items) => items.length <= 10, "得意なスタイルは10個までにしてください。")
    .refine(
      (items) => items.every((item) => item.length <= 20),
      "得意なスタイルはひとつ20文字以内で入力してください。",
    ),
  /** The menus this stylist can do. */
  menuIds: idList("担当メニュー", 200),
});
export type StaffInput = z.infer<typeof staffSchema>;

const weekdays = [0, 1, 2, 3, 4, 5, 6] as const;

export type ScheduleInterval = { weekday: number; startsAt: string; endsAt: string };

const scheduleIntervalsField = (weekday: number, index: number) => ({
  start: `start-${weekday}-${index}`,
  end: `end-${weekday}-${index}`,
});

/** The form field names of the weekly grid, for the page and for keeping typed values. */
export const scheduleFieldNames = weekdays.flatMap((weekday) =>
  Array.from({ length: INTERVALS_PER_DAY }, (_, index) => {
    const names = scheduleIntervalsField(weekday, index);
    return [names.start, names.end];
  }).flat(),
);

export { scheduleIntervalsField };

/**
 * A weekly pattern: its validity (inclusive; empty = open-ended) and up to
 * three intervals a weekday, read from `start-<weekday>-<n>` / `end-…`.
 * Errors are keyed by weekday (`day-<weekday>`) so the grid can show them.
 */
export function parseSchedule(form: Record<string, string>) {
  const errors: Record<string, string> = {};
  const from = optionalDate("適用開始日").safeParse(form.validFrom ?? "");
  const until = optionalDate("適用終了日").safeParse(form.validUntil ?? "");
  if (!from.success) errors.validFrom = from.error.issues[0]?.message ?? "";
  if (!until.success) errors.validUntil = until.error.issues[0]?.message ?? "";
  const validFrom = from.success ? from.data : null;
  const validUntil = until.success ? until.data : null;
  if (validFrom && validUntil && validUntil < validFrom) {
    errors.validUntil = "適用終了日は適用開始日以降の日付を入力してください。";
  }
  const intervals: ScheduleInterval[] = [];
  for (const weekday of weekdays) {
    const label = `${weekdayLabels[weekday]}曜日`;
    const day: ScheduleInterval[] = [];
    for (let index = 0; index < INTERVALS_PER_DAY; index++) {
      const names = scheduleIntervalsField(weekday, index);
      const start = (form[names.start] ?? "").trim();
      const end = (form[names.end] ?? "").trim();
      if (start === "" && end === "") continue;
      const startParsed = timeText(`${label}の開始時刻`).safeParse(start);
      const endParsed = timeText(`${label}の終了時刻`).safeParse(end);
      if (!startParsed.success || !endParsed.success) {
        errors[`day-${weekday}`] ??=
          (startParsed.error ?? endParsed.error)?.issues[0]?.message ?? "";
        continue;
      }
      if (endParsed.data <= startParsed.data) {
        errors[`day-${weekday}`] ??= `${label}の終了時刻は開始時刻より後にしてください。`;
        continue;
      }
      day.push({ weekday, startsAt: startParsed.data, endsAt: endParsed.data });
    }
    day.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    for (let i = 1; i < day.length; i++) {
      const previous = day[i - 1];
      const current = day[i];
      if (previous && current && current.startsAt < previous.endsAt) {
        errors[`day-${weekday}`] ??=
          `${label}の勤務時間が重なっています。休憩をはさむ場合は、前の時間帯の終了後から次を始めてください。`;
      }
    }
    intervals.push(...day);
  }
  if (Object.keys(errors).length === 0 && intervals.length === 0) {
    errors.form = "勤務時間を1つ以上入力してください（勤務しない曜日は空欄のままにします）。";
  }
  if (Object.keys(errors).length > 0) return { success: false as const, errors };
  return { success: true as const, data: { validFrom, validUntil, intervals } };
}
export type ScheduleInput = Extract<ReturnType<typeof parseSchedule>, { success: true }>["data"];

export const staffExceptionSchema = z
  .object({
    date: dateText("日付"),
    kind: choice("種類", scheduleExceptionKinds),
    startsAt: z.string().trim().catch(""),
    endsAt: z.string().trim().catch(""),
    note: optionalText("メモ", 100),
  })
  .superRefine((value, ctx) => {
    if (value.kind === "closed") return;
    for (const key of ["startsAt", "endsAt"] as const) {
      const parsed = timeText(key === "startsAt" ? "開始時刻" : "終了時刻").safeParse(value[key]);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: parsed.error.issues[0]?.message ?? "",
        });
      }
    }
    if (TIME.test(value.startsAt) && TIME.test(value.endsAt) && value.endsAt <= value.startsAt) {
      ctx.addIssue({
        code: "custom",
        path: ["endsAt"],
        message: "終了時刻は開始時刻より後にしてください。",
      });
    }
  })
  .transform((value) =>
    value.kind === "closed"
      ? { ...value, startsAt: null, endsAt: null }
      : { ...value, startsAt: value.startsAt, endsAt: value.endsAt },
  );
export type StaffExceptionInput = z.infer<typeof staffExceptionSchema>;

// ── Menus ──────────────────────────────────────────────────────────────

export const menuSchema = z
  .object({
    category: requiredText("カテゴリ", 30),
    name: requiredText("メニュー名", 60),
    description: optionalText("説明", 1000),
    price: integerText("料金", 0, 1_000_000, "円"),
    durationMinutes: z
      .string({ error: "所要時間を選択してください。" })
      .transform(Number)
      .refine((value) => durationChoices.includes(value), "所要時間を一覧から選択してください。"),
    staffScope: choice("担当スタッフ", ["all", "selected"]),
    staffIds: idList("担当スタッフ", 200),
    /** 事前決済の対象外 (decision 0075): a booking with it is paid at the salon. */
    prepaymentExempt: z
      .string()
      .optional()
      .catch(undefined)
      .transform((value) => value === "on" || value === "true"),
  })
  .superRefine((value, ctx) => {
    if (value.staffScope === "selected" && value.staffIds.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["staffIds"],
        message:
          "担当するスタッフを1人以上選んでください（全員が担当できる場合は「全スタッフ」を選びます）。",
      });
    }
  });
export type MenuInput = z.infer<typeof menuSchema>;

// ── Coupons ────────────────────────────────────────────────────────────

export const couponSchema = z
  .object({
    title: requiredText("クーポン名", 60),
    description: optionalText("説明", 500),
    discountKind: choice("割引の種類", couponDiscountKinds),
    discountValue: integerText("割引の値", 0, 1_000_000, ""),
    conditions: optionalText("利用条件", 500),
    /** 新規・再来・全員 (decision 0087). */
    target: choice("対象のお客様", couponTargets),
    oncePerCustomer: checkbox,
    /** The visit's weekdays, "0" (日) … "6" (土), as a bit mask. */
    weekdays: z
      .array(z.string())
      .catch([])
      .transform((days) =>
        days.reduce((mask, day) => (/^[0-6]$/.test(day) ? mask | (1 << Number(day)) : mask), 0),
      )
      .refine((mask) => mask > 0, "利用できる曜日を1つ以上選んでください。"),
    fromTime: optionalTime("利用できる時間帯の開始時刻"),
    untilTime: optionalTime("利用できる時間帯の終了時刻", true),
    /** The stylist to be chosen (指名); "" for anyone. Checked to be the salon's on save. */
    staffId: z
      .string()
      .trim()
      .catch("")
      .refine((text) => text === "" || isUuid(text), "対象スタイリストを一覧から選択してください。")
      .transform((text) => (text === "" ? null : text.toLowerCase())),
    studentOnly: checkbox,
    validFrom: dateText("開始日"),
    validUntil: optionalDate("終了日"),
    menuIds: idList("対象メニュー", 50),
    /** 事前決済の対象外 (decision 0075): a booking with it is paid at the salon. */
    prepaymentExempt: z
      .string()
      .optional()
      .catch(undefined)
      .transform((value) => value === "on" || value === "true"),
  })
  .superRefine((value, ctx) => {
    if (
      value.discountKind === "percent" &&
      (value.discountValue < 1 || value.discountValue > 100)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["discountValue"],
        message: "割引率は1〜100（%）で入力してください。",
      });
    }
    if (value.discountKind === "amount" && value.discountValue < 1) {
      ctx.addIssue({
        code: "custom",
        path: ["discountValue"],
        message: "割引額は1円以上で入力してください。",
      });
    }
    if (value.validUntil && value.validUntil < value.validFrom) {
      ctx.addIssue({
        code: "custom",
        path: ["validUntil"],
        message: "終了日は開始日以降の日付を入力してください。",
      });
    }
    if ((value.fromTime === null) !== (value.untilTime === null)) {
      ctx.addIssue({
        code: "custom",
        path: [value.fromTime === null ? "fromTime" : "untilTime"],
        message: "時間帯は開始と終了の両方を入力してください（終日使える場合はどちらも空欄）。",
      });
    } else if (
      value.fromTime !== null &&
      value.untilTime !== null &&
      value.untilTime <= value.fromTime
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["untilTime"],
        message: "時間帯の終了時刻は開始時刻より後にしてください。",
      });
    }
  })
  .transform(({ fromTime, untilTime, ...rest }) => ({
    ...rest,
    fromMinute: fromTime,
    untilMinute: untilTime,
  }));
export type CouponInput = z.infer<typeof couponSchema>;

/** A row's id from a button (staff, menu, coupon, exception). */
export const rowId = (label: string) => uuidText(label);
