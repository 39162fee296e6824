import { describe, expect, it } from "vitest";
import { areaSeeds } from "../db/seed/data/areas";
import { brandWords } from "../db/seed/data/names";
import { prefectureSeeds } from "../db/seed/data/prefectures";
import { normalizeForSearch } from "./normalize";
import { correctKeyword, correctWord, displaySpellings, editCost, nearestSpelling } from "./typo";
import { buildLexicon, type PlaceRow, understandQuery } from "./understand";

// The places of the demo data: the typos below are of real names, not of a fixture.
const places: PlaceRow[] = [
  ...prefectureSeeds.map((prefecture) => ({
    kind: "prefecture" as const,
    id: String(prefecture.code),
    slug: prefecture.slug,
    name: prefecture.name,
    kana: prefecture.kana,
    parentId: null,
  })),
  ...areaSeeds.flatMap((area) => [
    {
      kind: "area" as const,
      id: area.slug,
      slug: area.slug,
      name: area.name,
      kana: area.kana,
      parentId: null,
    },
    ...area.stations.map((station) => ({
      kind: "station" as const,
      id: station.slug,
      slug: station.slug,
      name: station.name,
      kana: station.kana,
      parentId: area.slug,
    })),
  ]),
];
const lexicon = buildLexicon(places);

describe("nearestSpelling: places", () => {
  it.each([
    ["表参堂", "表参道"],
    ["吉祥時", "吉祥寺"],
    ["中目里", "中目黒"],
    ["渋谷区", "渋谷"],
    ["渋矢", "渋谷"],
    ["しんじゆく", "新宿"],
    ["いけぶくお", "池袋"],
    ["ぎんさ", "銀座"],
    ["うねだ", "梅田"],
    ["ginnza", "銀座"],
    ["omotsndo", "表参道"],
  ])("%s → %s (the place's name, not its reading)", (typed, suggested) => {
    expect(nearestSpelling(typed, lexicon)).toBe(suggested);
  });

  it("says nothing for a known place", () => {
    for (const word of ["新宿", "しんじゅく", "shinjuku", "表参道", "自由ヶ丘"]) {
      expect(nearestSpelling(word, lexicon), word).toBeUndefined();
    }
  });

  it("guesses no place for two kanji as near two places (新谷: 新宿 or 渋谷?)", () => {
    expect(nearestSpelling("新谷", lexicon)).toBeUndefined();
  });

  it("suggests no place for a place that is not in the data (新橋, 大宮)", () => {
    expect(nearestSpelling("新橋", lexicon)).toBeUndefined();
    expect(nearestSpelling("大宮", lexicon)).toBeUndefined();
  });
});

describe("nearestSpelling: dictionary words", () => {
  it.each([
    ["カッド", "カット"],
    ["かっど", "カット"],
    ["ばーま", "パーマ"],
    ["パマー", "パーマ"],
    ["白髪ぞめ", "白髪染め"],
    ["まつげぱーむ", "まつげパーマ"],
  ])("%s → %s (as the dictionary writes it)", (typed, suggested) => {
    expect(nearestSpelling(typed, lexicon)).toBe(suggested);
  });

  it("prefers a dakuten or small-kana slip to another letter: かっど is カット, not カード", () => {
    const word = [...normalizeForSearch("かっど")];
    expect(editCost(word, [..."かっと"], 1)).toBeLessThan(editCost(word, [..."かーど"], 1));
  });
});

describe("nearestSpelling: words left alone", () => {
  it("ignores one- and two-letter words in kana and Latin letters", () => {
    for (const word of ["ab", "gz", "から", "しぶ", "カラ", "渋"]) {
      expect(nearestSpelling(word, lexicon), word).toBeUndefined();
    }
  });

  it("leaves short romaji alone (gnza): too many words are one letter away", () => {
    expect(nearestSpelling("gnza", lexicon)).toBeUndefined();
  });

  it("respells no salon's name to a place, and ordinary unknown words to nothing", () => {
    for (const brand of brandWords) {
      for (const name of [brand.kana, brand.slug]) {
        const suggested = correctWord(name, lexicon);
        if (suggested)
          expect(lexicon.words.get(normalizeForSearch(suggested))?.kind, name).not.toBe("place");
      }
    }
    for (const word of [
      "ルミエル",
      "ルーチェ",
      "ミモザ",
      "着付け",
      "ブライダル",
      "ヘアセット",
      "ネイルベータ",
    ]) {
      expect(correctWord(word, lexicon), word).toBeUndefined();
    }
  });

  it("knows no salon, so a name a letter from a menu word looks like its typo (パール)", () => {
    // Harmless on the page: a salon's name finds the salon, and only a search
    // that found nothing is offered a correction (search-correction.ts).
    expect(correctWord("パール", lexicon)).toBe("パーマ");
  });
});

describe("correctWord: words typed together", () => {
  it("respells a place before 駅 and a place typed against a known word", () => {
    expect(correctWord("表参堂駅", lexicon)).toBe("表参道駅");
    expect(correctWord("表参堂カット", lexicon)).toBe("表参道カット");
  });
});

describe("correctKeyword", () => {
  const correct = (q: string) => correctKeyword(understandQuery(q, lexicon), lexicon);

  it("replaces the unknown word and keeps the others as typed", () => {
    expect(correct("表参堂 カット")).toEqual({
      typed: "表参堂",
      suggested: "表参道",
      q: "表参道 カット",
    });
    expect(correct("ｶｯﾄ 吉祥時")).toEqual({
      typed: "吉祥時",
      suggested: "吉祥寺",
      q: "カット 吉祥寺",
    });
  });

  it("respells every unknown word that has a near spelling", () => {
    expect(correct("表参堂 カッド")).toEqual({
      typed: "表参堂 カッド",
      suggested: "表参道 カット",
      q: "表参道 カット",
    });
  });

  it("gives the search words it understands: the corrected keyword has no unknown word", () => {
    for (const q of ["表参堂 カット", "渋矢 ネイル", "しんじゆく ばーま", "表参堂カット"]) {
      const correction = correct(q);
      expect(correction, q).not.toBeNull();
      const terms = understandQuery(correction?.q ?? "", lexicon);
      expect(
        terms.filter((term) => term.kind === "keyword" && !term.token),
        q,
      ).toEqual([]);
    }
  });

  it("is null for a search it understood or words it cannot place", () => {
    expect(correct("新宿 カット")).toBeNull();
    expect(correct("ルーチェ 渋谷")).toBeNull();
    expect(correct("ab")).toBeNull();
  });
});

describe("the display spellings", () => {
  it("each one means what the word it stands for means (おもてさんどう → 表参道)", () => {
    const displays = displaySpellings(lexicon);
    expect(displays.get("おもてさんどう")).toBe("表参道");
    expect(displays.get("nagoya")).toBe("名古屋");
    expect(displays.get("かっと")).toBe("カット");
    expect(displays.get("さんのみや")).toBe("三ノ宮");
    for (const [key, meaning] of lexicon.words) {
      const display = displays.get(key) ?? key;
      const shown = lexicon.words.get(normalizeForSearch(display));
      if (meaning.kind !== "place") expect(shown?.label, `${key} → ${display}`).toBe(meaning.label);
      else {
        expect(shown, `${key} → ${display}`).toMatchObject({
          areaIds: expect.arrayContaining(meaning.areaIds),
          stationIds: expect.arrayContaining(meaning.stationIds),
          prefectureCodes: expect.arrayContaining(meaning.prefectureCodes),
        });
      }
    }
  });
});
