import { z } from "zod";
import { bookingRuleFields } from "../../common/booking-rules-fields";
import { normalizePhone, requiredText } from "../../common/field-rules";
import { salonGenres } from "../../common/genres";
import { isLocalDate } from "../../common/local-time";
import {
  BLANK_CLOSURES,
  closureField,
  hoursField,
  INTERVALS_PER_DAY,
  MAX_CLOSURES,
  WEEKDAYS,
  weekdayLabels,
} from "../../common/salon-form-fields";
import { SLUG_PATTERN } from "../../common/slug";
import { isUuid, UUID_PATTERN } from "../../common/uuid";
import { bookingRulesShape } from "./booking-rules";

/**
 * The 基本情報 form of /admin/salons/add and /admin/salons/edit/:id: its
 * field names, how a submitted form becomes typed input (Zod, Japanese
 * messages), and the typed values a failed submit shows again. Pure: no
 * database (references are checked by salon-basic-info-write.server.ts).
 */

/** The single-valued fields, in form order (also the keys of the error summary). */
export const scalarFields = [
  "name",
  "nameKana",
  "slug",
  "genre",
  "catchCopy",
  "description",
  "postalCode",
  "prefectureCode",
  "addressLine",
  "access",
  "latitude",
  "longitude",
  "phone",
  "areaId",
  "stationId",
  "holidayNote",
  // The booking rules (decision 0048): the same fields as the owner's 設定 page.
  ...bookingRuleFields,
  "addOwnerId",
] as const;
export type ScalarField = (typeof scalarFields)[number];

/** Everything typed, as strings, to fill the form again. */
export type SalonFormValues = {
  fields: Record<string, string>;
  features: string[];
  ownerIds: string[];
  /** How many closure rows were submitted (existing + blank). */
  closureRows: number;
};

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const MAX_TEXT = 4000;

const cut = (value: FormDataEntryValue | null, max = MAX_TEXT) =>
  typeof value === "string" ? value.replace(/\0/g, "").slice(0, max) : "";

/** The submitted form as strings (long or odd values cut, files ignored). */
export function salonFormValues(form: FormData): SalonFormValues {
  const fields: Record<string, string> = {};
  for (const key of scalarFields) fields[key] = cut(form.get(key));
  for (const weekday of WEEKDAYS) {
    for (let k = 0; k < INTERVALS_PER_DAY; k++) {
      for (const end of ["opens", "closes"] as const) {
        const key = hoursField(weekday, k, end);
        fields[key] = cut(form.get(key), 10);
      }
    }
  }
  const rows = Math.min(
    MAX_CLOSURES + BLANK_CLOSURES,
    Math.max(0, Number.parseInt(cut(form.get("closureRows"), 4), 10) || 0),
  );
  for (let i = 0; i < rows; i++) {
    fields[closureField(i, "date")] = cut(form.get(closureField(i, "date")), 20);
    fields[closureField(i, "note")] = cut(form.get(closureField(i, "note")), 200);
  }
  const list = (key: string) =>
    [...new Set(form.getAll(key).map((value) => cut(value, 100)))].slice(0, 100);
  return { fields, features: list("features"), ownerIds: list("ownerIds"), closureRows: rows };
}

/** Salon names are katakana (hiragana and half width accepted), spaces and ・. */
const salonKana = requiredText("サロン名（フリガナ）", 100)
  .transform((text) =>
    text
      .normalize("NFKC")
      .replace(/[\u3041-\u3096]/gu, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60))
      .replace(/\s+/gu, " "),
  )
  .refine((text) => /^[\u30a1-\u30f6\u30fc\u30fb ]+$/u.test(text), {
    message:
      "サロン名（フリガナ）はカタカナかひらがなで入力してください（例：ヘアサロン サクラ）。",
  });

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "URL名（スラッグ）を入力してください。")
  .max(80, "URL名（スラッグ）は80文字以内で入力してください。")
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "URL名（スラッグ）は半角英小文字・数字とハイフンで入力してください（例：hair-sakura-shibuya）。",
  );

const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label}は${max}文字以内で入力してください。`);

const postalCode = z
  .string()
  .transform((text) => text.normalize("NFKC").replace(/[\s‐－ー―−-]/gu, ""))
  .refine((text) => text.length > 0, "郵便番号を入力してください。")
  .refine((text) => /^\d{7}$/.test(text), "郵便番号は7桁の数字で入力してください（例：150-0001）。")
  .transform((text) => `${text.slice(0, 3)}-${text.slice(3)}`);

/** A decimal number typed in a text field (full-width digits accepted). */
const decimal = (label: string, min: number, max: number, range: string) =>
  z
    .string()
    .transform((text) => text.normalize("NFKC").trim())
    .refine((text) => text.length > 0, `${label}を入力してください。`)
    .refine((text) => /^-?\d{1,3}(?:\.\d{1,10})?$/.test(text), `${label}は数値で入力してください。`)
    .transform(Number)
    .refine(
      (value) => value >= min && value <= max,
      `${label}は${range}の範囲で入力してください。`,
    );

/**
 * Phone numbers as written on a shop card: any common writing is accepted
 * (common/field-rules.ts normalizePhone decides what is a Japanese number)
 * and stored with its hyphens, full-width forms folded.
 */
const salonPhone = z.string().transform((text, ctx) => {
  const written = text
    .normalize("NFKC")
    .replace(/[‐－ー―]/gu, "-")
    .replace(/\s+/gu, "");
  if (written === "") return "";
  if (!normalizePhone(written)) {
    ctx.addIssue({
      code: "custom",
      message: "電話番号は市外局番から入力してください（例：03-1234-5678）。",
    });
    return z.NEVER;
  }
  return written.slice(0, 20);
});

const uuidOf = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label}を選択してください。`)
    .regex(UUID_PATTERN, `${label}の指定が正しくありません。`)
    .transform((id) => id.toLowerCase());

export const salonFieldsSchema = z.object({
  name: requiredText("サロン名", 100),
  nameKana: salonKana,
  slug,
  genre: z.enum(salonGenres, { error: "ジャンルを選択してください。" }),
  catchCopy: optionalText("キャッチコピー", 100),
  description: optionalText("紹介文", 2000),
  postalCode,
  prefectureCode: z
    .string()
    .regex(/^\d{1,2}$/, "都道府県を選択してください。")
    .transform(Number)
    .refine((code) => code >= 1 && code <= 47, "都道府県を選択してください。"),
  addressLine: optionalText("市区町村・番地・建物名", 200),
  access: optionalText("アクセス", 200),
  latitude: decimal("緯度", 20, 46, "20〜46（日本国内）"),
  longitude: decimal("経度", 122, 154, "122〜154（日本国内）"),
  phone: salonPhone,
  areaId: uuidOf("エリア"),
  stationId: z
    .string()
    .trim()
    .transform((id) => (id === "" ? null : id.toLowerCase()))
    .refine((id) => id === null || isUuid(id), "最寄り駅の指定が正しくありません。"),
  holidayNote: optionalText("定休日の補足", 200),
  ...bookingRulesShape,
  addOwnerId: z
    .string()
    .trim()
    .refine(
      (id) => id === "" || /^[A-Za-z0-9_-]{1,100}$/.test(id),
      "オーナーの指定が正しくありません。",
    ),
});

export type OpeningInterval = { weekday: number; opens: string; closes: string };
export type Closure = { date: string; note: string };

export type SalonInput = Omit<z.infer<typeof salonFieldsSchema>, "addOwnerId"> & {
  openingHours: OpeningInterval[];
  closures: Closure[];
  featureSlugs: string[];
  ownerIds: string[];
};

export type SalonFormErrors = Record<string, string | undefined>;

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Opening hours of the form: each weekday's filled intervals, checked and ordered. */
function parseHours(fields: Record<string, string>, errors: SalonFormErrors): OpeningInterval[] {
  const out: OpeningInterval[] = [];
  for (const weekday of WEEKDAYS) {
    const label = weekdayLabels[weekday];
    const day: OpeningInterval[] = [];
    for (let k = 0; k < INTERVALS_PER_DAY; k++) {
      const opens = (fields[hoursField(weekday, k, "opens")] ?? "").normalize("NFKC").trim();
      const closes = (fields[hoursField(weekday, k, "closes")] ?? "").normalize("NFKC").trim();
      const key = hoursField(weekday, k, "opens");
      if (opens === "" && closes === "") continue;
      if (!HHMM.test(opens) || !HHMM.test(closes)) {
        errors[key] ??= `${label}の営業時間は開店と閉店の両方を「10:00」の形で入力してください。`;
        continue;
      }
      if (minutes(closes) <= minutes(opens)) {
        errors[key] ??= `${label}の閉店時刻は開店時刻より後にしてください。`;
        continue;
      }
      day.push({ weekday, opens, closes });
    }
    day.sort((a, b) => minutes(a.opens) - minutes(b.opens));
    for (let i = 1; i < day.length; i++) {
      const previous = day[i - 1];
      const current = day[i];
      if (previous && current && minutes(current.opens) < minutes(previous.closes)) {
        errors[hoursField(weekday, 0, "opens")] ??= `${label}の営業時間が重なっています。`;
      }
    }
    out.push(...day);
  }
  return out;
}

function parseClosures(values: SalonFormValues, errors: SalonFormErrors): Closure[] {
  const seen = new Map<string, Closure>();
  for (let i = 0; i < values.closureRows; i++) {
    const date = (values.fields[closureField(i, "date")] ?? "").normalize("NFKC").trim();
    const note = (values.fields[closureField(i, "note")] ?? "").trim().slice(0, 100);
    if (date === "") continue;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isLocalDate(date)) {
      errors[closureField(i, "date")] ??=
        "臨時休業日は「2026-12-31」の形の正しい日付で入力してください。";
      continue;
    }
    seen.set(date, { date, note });
  }
  if (seen.size > MAX_CLOSURES) {
    errors.closures = `臨時休業日は${MAX_CLOSURES}日までにしてください。`;
  }
  return [...seen.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The submitted form as typed input, or the field errors (Japanese) to show. */
export function parseSalonForm(
  values: SalonFormValues,
): { ok: true; input: SalonInput } | { ok: false; errors: SalonFormErrors } {
  const errors: SalonFormErrors = {};
  const parsed = salonFieldsSchema.safeParse(values.fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "form");
      errors[key] ??= issue.message;
    }
  }
  const openingHours = parseHours(values.fields, errors);
  const closures = parseClosures(values, errors);
  const featureSlugs = values.features.filter((slug) => SLUG_PATTERN.test(slug));
  if (featureSlugs.length !== values.features.length) {
    errors.features = "特徴の指定が正しくありません。";
  }
  const ownerIds = values.ownerIds.filter((id) => /^[A-Za-z0-9_-]{1,100}$/.test(id));
  if (ownerIds.length !== values.ownerIds.length)
    errors.ownerIds = "オーナーの指定が正しくありません。";
  if (!parsed.success || Object.values(errors).some(Boolean)) return { ok: false, errors };
  const { addOwnerId, ...fields } = parsed.data;
  if (addOwnerId && !ownerIds.includes(addOwnerId)) ownerIds.push(addOwnerId);
  return { ok: true, input: { ...fields, openingHours, closures, featureSlugs, ownerIds } };
}
