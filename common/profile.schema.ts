import { z } from "zod";
import { choice, kanaName, personName, phoneNumber } from "./field-rules";

export const genders = ["female", "male", "other", "unspecified"] as const;
export const genderLabels: Record<(typeof genders)[number], string> = {
  female: "女性",
  male: "男性",
  other: "その他",
  unspecified: "回答しない",
};

/** The profile form of /account/edit, checked the same way in the browser and the action. */
export const profileSchema = (today: Date = new Date()) =>
  z.object({
    name: personName("お名前"),
    nameKana: kanaName("お名前（フリガナ）"),
    phone: phoneNumber(),
    gender: choice("性別", genders),
    birthDate: z
      .string()
      .trim()
      .transform((text) => (text === "" ? null : text))
      .refine((text) => text === null || isPlausibleBirthDate(text, today), {
        message:
          "生年月日は1900年以降の過去の日付を、年-月-日の形で入力してください（例：1990-04-01）。",
      }),
  });

function isPlausibleBirthDate(text: string, today: Date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return (
    !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10) === text &&
    text >= "1900-01-01" &&
    date.getTime() <= today.getTime()
  );
}

export type ProfileInput = z.infer<ReturnType<typeof profileSchema>>;
export type ProfileField = keyof ProfileInput;
