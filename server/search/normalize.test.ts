import { describe, expect, it } from "vitest";
import { katakanaToHiragana, normalizeForSearch } from "./normalize";

describe("normalizeForSearch", () => {
  it("folds half-width katakana, full-width katakana and hiragana together", () => {
    expect(normalizeForSearch("ｼﾌﾞﾔ")).toBe("しぶや");
    expect(normalizeForSearch("シブヤ")).toBe("しぶや");
    expect(normalizeForSearch("しぶや")).toBe("しぶや");
  });

  it("folds full-width Latin letters and digits and lower-cases them", () => {
    expect(normalizeForSearch("ＨＡＩＲ　Ｓａｌｏｎ １２３")).toBe("hair salon 123");
  });

  it("collapses white space, including the ideographic space", () => {
    expect(normalizeForSearch("  表参道　　カット \n")).toBe("表参道 かっと");
  });

  it("reads ヶ and ケ between kanji as が, as place names are written all three ways", () => {
    expect(normalizeForSearch("自由ヶ丘")).toBe("自由が丘");
    expect(normalizeForSearch("自由ケ丘")).toBe("自由が丘");
    expect(normalizeForSearch("自由が丘")).toBe("自由が丘");
    expect(normalizeForSearch("ケア ヶ月 ケ丘")).toBe("けあ ゖ月 け丘");
  });

  it("reads a minus or dash after kana as the long vowel mark", () => {
    expect(normalizeForSearch("カラ－")).toBe("からー");
    expect(normalizeForSearch("カラ-")).toBe("からー");
    expect(normalizeForSearch("ﾍｯﾄﾞｽﾊﾟ")).toBe("へっどすぱ");
    expect(normalizeForSearch("4-12-3 A-B")).toBe("4-12-3 a-b");
  });

  it("keeps kanji and the long vowel mark", () => {
    expect(normalizeForSearch("ヘアカラー 渋谷")).toBe("へあからー 渋谷");
  });
});

describe("katakanaToHiragana", () => {
  it("maps ヴ and small kana and leaves other scripts", () => {
    expect(katakanaToHiragana("ヴァイオレット ァィ ABC 漢字")).toBe("ゔぁいおれっと ぁぃ ABC 漢字");
  });
});
