import { describe, expect, it } from "vitest";
import { hiraganaToKatakana, romajiReadings } from "./readings";

describe("romajiReadings", () => {
  it("gives Hepburn and the spellings without long vowels", () => {
    expect(romajiReadings("しんじゅく")).toContain("shinjuku");
    expect(romajiReadings("おもてさんどう")).toEqual(
      expect.arrayContaining(["omotesandou", "omotesando"]),
    );
    expect(romajiReadings("じゆうがおか")).toContain("jiyugaoka");
    expect(romajiReadings("おおさか")).toContain("osaka");
  });

  it("also writes n before b, m and p as m", () => {
    expect(romajiReadings("しんばし")).toEqual(expect.arrayContaining(["shinbashi", "shimbashi"]));
    expect(romajiReadings("なんば")).toEqual(expect.arrayContaining(["nanba", "namba"]));
  });

  it("gives nothing for a reading without kana", () => {
    expect(romajiReadings("")).toEqual([]);
  });
});

describe("hiraganaToKatakana", () => {
  it("converts hiragana and leaves the rest", () => {
    expect(hiraganaToKatakana("まつげ ABC 眉")).toBe("マツゲ ABC 眉");
  });
});
