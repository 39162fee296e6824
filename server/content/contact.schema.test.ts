import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../common/field-rules";
import { contactSchema } from "./contact.schema";

const valid = {
  name: "佐藤 花子",
  email: "hanako@example.jp",
  category: "booking",
  body: "予約の変更について教えてください。",
};

describe("contactSchema", () => {
  it("accepts a complete message and trims it", () => {
    expect(contactSchema.parse({ ...valid, name: "  佐藤 花子 " }).name).toBe("佐藤 花子");
  });

  it("explains every missing field in Japanese", () => {
    const result = contactSchema.safeParse({ name: "", email: "", category: "", body: "" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error)).toEqual({
      name: "お名前を入力してください。",
      email: "メールアドレスを入力してください。",
      category: "お問い合わせの種類を選択してください。",
      body: "お問い合わせ内容を入力してください。",
    });
  });

  it("rejects a malformed email and a too short body", () => {
    const result = contactSchema.safeParse({ ...valid, email: "hanako@", body: "短い" });
    expect(result.success).toBe(false);
    if (result.success) return;
    const errors = fieldErrors(result.error);
    expect(errors.email).toMatch(/形式が正しくありません/);
    expect(errors.body).toBe("お問い合わせ内容は10文字以上で入力してください。");
  });
});
