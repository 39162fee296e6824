import { describe, expect, it } from "vitest";
import {
  buildLexicon,
  type PlaceRow,
  searchedForms,
  understandQuery,
  withinOneEdit,
} from "./understand";

const places: PlaceRow[] = [
  {
    kind: "prefecture",
    id: "13",
    slug: "tokyo",
    name: "東京都",
    kana: "とうきょうと",
    parentId: null,
  },
  {
    kind: "prefecture",
    id: "27",
    slug: "osaka",
    name: "大阪府",
    kana: "おおさかふ",
    parentId: null,
  },
  {
    kind: "prefecture",
    id: "1",
    slug: "hokkaido",
    name: "北海道",
    kana: "ほっかいどう",
    parentId: null,
  },
  {
    kind: "area",
    id: "a-shibuya",
    slug: "shibuya-harajuku",
    name: "渋谷・原宿",
    kana: "しぶや・はらじゅく",
    parentId: null,
  },
  {
    kind: "area",
    id: "a-omotesando",
    slug: "omotesando",
    name: "表参道",
    kana: "おもてさんどう",
    parentId: "a-shibuya",
  },
  {
    kind: "area",
    id: "a-shinjuku",
    slug: "shinjuku",
    name: "新宿",
    kana: "しんじゅく",
    parentId: null,
  },
  {
    kind: "station",
    id: "s-shinjuku",
    slug: "shinjuku-st",
    name: "新宿",
    kana: "しんじゅく",
    parentId: "a-shinjuku",
  },
  {
    kind: "station",
    id: "s-nakameguro",
    slug: "nakameguro",
    name: "中目黒",
    kana: "なかめぐろ",
    parentId: "a-shibuya",
  },
  { kind: "area", id: "a-meieki", slug: "meieki", name: "名駅", kana: "めいえき", parentId: null },
];
const lexicon = buildLexicon(places);
const understand = (q: string) => understandQuery(q, lexicon);

describe("understandQuery: places", () => {
  it.each([
    "新宿",
    "新宿駅",
    "しんじゅく",
    "シンジュク",
    "ｼﾝｼﾞｭｸ",
    "shinjuku",
    "Shinjuku",
    "SHINJUKU",
    "しんじゅくえき",
    "shinjuku station",
  ])("%s is the area and the station of 新宿", (q) => {
    expect(understand(q)).toEqual([
      expect.objectContaining({
        kind: "place",
        areaIds: ["a-shinjuku"],
        stationIds: ["s-shinjuku"],
      }),
    ]);
  });

  it("finds a station with or without 駅 and by its readings", () => {
    for (const q of ["中目黒", "中目黒駅", "なかめぐろ", "ナカメグロ", "nakameguro"]) {
      expect(understand(q), q).toEqual([
        expect.objectContaining({ kind: "place", stationIds: ["s-nakameguro"] }),
      ]);
    }
  });

  it("reads each part of a joined area name, and an area includes its sub-areas", () => {
    expect(understand("原宿")).toEqual([
      expect.objectContaining({ areaIds: ["a-shibuya", "a-omotesando"] }),
    ]);
    expect(understand("harajuku")).toEqual([
      expect.objectContaining({ areaIds: ["a-shibuya", "a-omotesando"] }),
    ]);
    expect(understand("omotesando")).toEqual([
      expect.objectContaining({ areaIds: ["a-omotesando"] }),
    ]);
  });

  it("reads prefectures with or without 都・府・県, in kana and romaji", () => {
    for (const q of ["東京", "東京都", "とうきょう", "トウキョウ", "tokyo", "Tokyo"]) {
      expect(understand(q), q).toEqual([
        expect.objectContaining({ kind: "place", prefectureCodes: [13] }),
      ]);
    }
    for (const q of ["大阪", "大阪府", "osaka", "おおさか"]) {
      expect(understand(q), q).toEqual([
        expect.objectContaining({ kind: "place", prefectureCodes: [27] }),
      ]);
    }
    expect(understand("hokkaido")).toEqual([expect.objectContaining({ prefectureCodes: [1] })]);
  });

  it("keeps a place whose name ends in 駅 (名駅)", () => {
    expect(understand("名駅")).toEqual([
      expect.objectContaining({ kind: "place", areaIds: ["a-meieki"] }),
    ]);
  });

  it("forgives one typing error in a longer word", () => {
    expect(understand("shinjku")).toEqual([
      expect.objectContaining({ kind: "place", areaIds: ["a-shinjuku"] }),
    ]);
    expect(understand("omotesnado")).toEqual([
      expect.objectContaining({ kind: "place", areaIds: ["a-omotesando"] }),
    ]);
  });
});

describe("understandQuery: several words", () => {
  it("gives each word its meaning (表参道 ネイル: nail salons in 表参道)", () => {
    expect(understand("表参道 ネイル")).toEqual([
      expect.objectContaining({ kind: "place", areaIds: ["a-omotesando"] }),
      expect.objectContaining({ kind: "genre", genre: "nail" }),
    ]);
  });

  it("splits words typed without a space when every piece is known", () => {
    expect(understand("表参道ネイル")).toEqual([
      expect.objectContaining({ kind: "place", typed: "表参道" }),
      expect.objectContaining({ kind: "genre", genre: "nail" }),
    ]);
    expect(understand("新宿駅マツエク")).toEqual([
      expect.objectContaining({ kind: "place", stationIds: ["s-shinjuku"] }),
      expect.objectContaining({ kind: "keyword", label: "まつげエクステ", about: "eyelash" }),
    ]);
  });

  it("keeps an unknown word whole (a salon's name), tolerant of typing errors when long", () => {
    expect(understand("ネイルベータ")).toEqual([
      expect.objectContaining({ kind: "keyword", variants: ["ねいるべーた"], fuzzy: true }),
    ]);
    expect(understand("abc")).toEqual([expect.objectContaining({ kind: "keyword", fuzzy: false })]);
  });

  it("reads a two-word name as one word and drops repeated words", () => {
    expect(understand("hair salon")).toEqual([
      expect.objectContaining({ kind: "genre", genre: "hair" }),
    ]);
    expect(understand("ネイル ネイルサロン")).toHaveLength(1);
  });
});

describe("understandQuery: how people join and pad their words", () => {
  // The meanings without what was typed.
  const meanings = (q: string) => understand(q).map(({ typed: _typed, ...meaning }) => meaning);

  it.each([
    "新宿、カット",
    "新宿,カット",
    "新宿，カット",
    "新宿/カット",
    "新宿+カット",
    "新宿。カット",
  ])("%s is 新宿 カット", (q) => {
    expect(meanings(q)).toEqual(meanings("新宿 カット"));
  });

  it.each(["新宿のカット", "新宿でカット", "新宿駅のカット"])("%s skips the particle", (q) => {
    expect(meanings(q)).toEqual(meanings("新宿 カット"));
  });

  it.each(["新宿 安い カット", "新宿の安いカット", "おすすめ 新宿 カット", "新宿 カット 人気"])(
    "%s drops the words that add no condition",
    (q) => {
      expect(meanings(q)).toEqual(meanings("新宿 カット"));
    },
  );

  it("splits カット・カラー at the dot, but keeps a place's own dot", () => {
    expect(meanings("カット・カラー")).toEqual(meanings("カット カラー"));
    expect(understand("渋谷・原宿")).toEqual([
      expect.objectContaining({ kind: "place", label: "渋谷・原宿" }),
    ]);
  });

  it("reads ヘアカラー as the hair genre and カラー, which nail salons offer too", () => {
    expect(understand("ヘアカラー")).toEqual([
      expect.objectContaining({ kind: "genre", genre: "hair" }),
      expect.objectContaining({ kind: "keyword", label: "カラー" }),
    ]);
  });

  it("keeps a word whole when a particle is not between two known words", () => {
    expect(understand("はなのいえ")).toEqual([
      expect.objectContaining({ kind: "keyword", label: "はなのいえ" }),
    ]);
    expect(understand("のカット")).toEqual([
      expect.objectContaining({ kind: "keyword", label: "のカット" }),
    ]);
  });
});

describe("withinOneEdit", () => {
  it.each([
    ["shinjuku", "shinjuku", true],
    ["shinjku", "shinjuku", true],
    ["shinjuuku", "shinjuku", true],
    ["shinjaku", "shinjuku", true],
    ["shnijuku", "shinjuku", true],
    ["shnjku", "shinjuku", false],
    ["ikebukuro", "shinjuku", false],
  ])("%s ~ %s: %s", (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});

describe("searchedForms", () => {
  it("drops spellings that contain another, which like '%…%' already finds", () => {
    expect(
      searchedForms(["まつげエクステ", "マツエク", "エクステ", "まつ毛エクステ"]).sort(),
    ).toEqual(["えくすて", "まつえく"].sort());
  });
});
