import { describe, expect, it } from "vitest";
import { emailAddress, normalizeEmail } from "./field-rules";

describe("email addresses as Japanese keyboards type them", () => {
  it("become half-width and trimmed", () => {
    expect(normalizeEmail("　ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ　")).toBe("hanako@example.jp");
    expect(normalizeEmail("hanako@example。jp")).toBe("hanako@example.jp");
    expect(normalizeEmail("Ｈａｎａｋｏ.Ｙａｍａｄａ＋１＠ｅｘａｍｐｌｅ.ｃｏ.ｊｐ")).toBe(
      "Hanako.Yamada+1@example.co.jp",
    );
    expect(emailAddress().parse(" ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ")).toBe("hanako@example.jp");
  });

  it("are still refused when they are not addresses, with the Japanese message", () => {
    const result = emailAddress().safeParse("ｈａｎａｋｏ");
    expect(result.error?.issues[0]?.message).toBe(
      "メールアドレスの形式が正しくありません（例：hanako@example.jp）。",
    );
    expect(emailAddress().safeParse("　").error?.issues[0]?.message).toBe(
      "メールアドレスを入力してください。",
    );
  });
});
