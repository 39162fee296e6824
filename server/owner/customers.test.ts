import { describe, expect, it } from "vitest";
import { normalizeCustomerQuery } from "./customers.server";

describe("the customer search's query", () => {
  it("reads hiragana and half-width kana as katakana, ignores spaces, and keeps the digits apart", () => {
    expect(normalizeCustomerQuery("やまだ はなこ")).toEqual({ text: "ヤマダハナコ", digits: "" });
    expect(normalizeCustomerQuery("ﾔﾏﾀﾞ")).toEqual({ text: "ヤマダ", digits: "" });
    expect(normalizeCustomerQuery("０９０-１２３４")).toEqual({
      text: "090-1234",
      digits: "0901234",
    });
    expect(normalizeCustomerQuery("山田　花子").text).toBe("山田花子");
  });
});
