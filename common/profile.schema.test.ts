import { describe, expect, it } from "vitest";
import { normalizePhone } from "./field-rules";
import {
  DEFAULT_PASSWORD_POLICY,
  describePasswordPolicy,
  passwordProblems,
} from "./password-policy";
import { profileSchema } from "./profile.schema";

describe("normalizePhone", () => {
  it.each([
    ["090-1234-5678", "09012345678"],
    ["０９０ー１２３４ー５６７８", "09012345678"],
    ["+81 90 1234 5678", "09012345678"],
    ["+81-3-1234-5678", "0312345678"],
    ["03(1234)5678", "0312345678"],
    ["0120-123-456", "0120123456"],
  ])("%s → %s", (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each(["12345", "090-1234-567", "031234567890", "abc", "03123456789"])(
    "rejects %s",
    (input) => {
      expect(normalizePhone(input)).toBeNull();
    },
  );
});

describe("profileSchema", () => {
  const today = new Date("2026-01-01T00:00:00Z");
  const valid = {
    name: " 山田 花子 ",
    nameKana: "やまだ　はなこ",
    phone: "090-1234-5678",
    gender: "female",
    birthDate: "1990-04-01",
  };

  it("normalizes kana to katakana and the phone to digits", () => {
    expect(profileSchema(today).parse(valid)).toEqual({
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      gender: "female",
      birthDate: "1990-04-01",
    });
    expect(profileSchema(today).parse({ ...valid, birthDate: "" }).birthDate).toBeNull();
  });

  it("answers each bad field in Japanese", () => {
    const result = profileSchema(today).safeParse({
      name: "",
      nameKana: "Yamada",
      phone: "123",
      gender: "x",
      birthDate: "2030-02-30",
    });
    const messages = result.error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    expect(messages).toEqual([
      "name: お名前を入力してください。",
      "nameKana: お名前（フリガナ）はひらがなかカタカナで入力してください（例：ヤマダ ハナコ）。",
      "phone: 電話番号は市外局番から、半角数字で入力してください（例：090-1234-5678）。",
      "gender: 性別を選択してください。",
      "birthDate: 生年月日は1900年以降の過去の日付を、年-月-日の形で入力してください（例：1990-04-01）。",
    ]);
  });
});

describe("names (decision 0035)", () => {
  const name = (value: string) => {
    const result = profileSchema().shape.name.safeParse(value);
    return result.success ? result.data : result.error.issues[0]?.message;
  };
  const control =
    "お名前に使えない文字（改行・タブ・制御文字・外字など）が含まれています。取り除いてから入力してください。";
  const emoji = "お名前に絵文字は使えません。文字だけで入力してください。";

  it.each([
    ["山田　花子", "山田 花子"],
    [" 山田  花子 ", "山田 花子"],
    ["葛\u{E0100}西 花子", "葛\u{E0100}西 花子"], // a kanji variant (IVS) is kept
    ["髙橋 﨑子", "髙橋 﨑子"],
    ["Hanako Yamada", "Hanako Yamada"],
    ["山田★花子♪", "山田★花子♪"], // symbols Japanese names are written with are not emoji
  ])("takes %s as %s", (input, expected) => {
    expect(name(input)).toBe(expected);
  });

  it.each([
    ["山田\n花子", control],
    ["山田\t花子", control],
    ["山田\u0007花子", control],
    ["山田\u200B花子", control], // zero-width space
    ["山田\u202E花子", control], // right-to-left override
    ["山田\uE000", control], // private use (外字)
    ["山田花子😀", emoji],
    ["山田❤️", emoji],
    ["山田👍🏻", emoji],
    ["🇯🇵山田", emoji],
    ["山田1️⃣", emoji],
  ])("refuses %j in Japanese", (input, message) => {
    expect(name(input)).toBe(message);
  });
});

describe("password policy", () => {
  it("defaults to 6 characters and explains stricter policies", () => {
    expect(passwordProblems("12345", DEFAULT_PASSWORD_POLICY)).toEqual([
      "パスワードは6文字以上で入力してください。",
    ]);
    const strict = {
      ...DEFAULT_PASSWORD_POLICY,
      maxLength: 12,
      requireUppercase: true,
      requireNonAlphanumeric: true,
    };
    expect(describePasswordPolicy(strict)).toBe(
      "6文字以上12文字以内で、英大文字・記号をそれぞれ1文字以上含めてください。",
    );
    expect(passwordProblems("abcdefghijklm", strict)).toEqual([
      "パスワードは12文字以内で入力してください。",
      "パスワードに英大文字を1文字以上含めてください。",
      "パスワードに記号を1文字以上含めてください。",
    ]);
    expect(passwordProblems("Abcdef!", strict)).toEqual([]);
  });
});
