import { describe, expect, it } from "vitest";
import { readQueryWords, withQueryWords } from "./query-words";

// Thursday 26 November 2026, 12:00 in Tokyo.
const thursday = new Date("2026-11-26T03:00:00Z");
const saturday = new Date("2026-11-28T03:00:00Z");
const sunday = new Date("2026-11-29T03:00:00Z");

const read = (q: string, now = thursday) => readQueryWords(q, now);
const filters = (q: string, now = thursday) => read(q, now).filters;

describe("readQueryWords: whole queries", () => {
  it("reads a date and a time typed with or without spaces, keeping the rest", () => {
    for (const q of [
      "明日19時以降カット新宿",
      "明日 19時以降 カット 新宿",
      "明日　１９時以降　カット　新宿",
    ]) {
      const words = read(q);
      expect(words.filters).toEqual({ date: "2026-11-27", from: "19:00" });
    }
    expect(read("明日19時以降カット新宿").rest).toBe("カット新宿");
    expect(read("明日 19時以降 カット 新宿").rest).toBe("カット 新宿");
    expect(read("明日　１９時以降　カット　新宿").rest).toBe("カット 新宿");
    expect(read("明日 19時以降 カット 新宿").words.map((word) => word.typed)).toEqual([
      "明日",
      "19時以降",
    ]);
  });

  it("gives the rest as typed, full-width letters included", () => {
    expect(read("ＡＢＣサロン 明日").rest).toBe("ＡＢＣサロン");
    expect(read("カット、明日").rest).toBe("カット");
  });

  it("leaves a keyword without such words as it is", () => {
    const q = "  カット  新宿 ";
    expect(read(q)).toEqual({ words: [], filters: {}, rest: q });
  });

  it("reads particles between words read, and の before the rest", () => {
    expect(read("明日の夜")).toMatchObject({
      filters: { date: "2026-11-27", from: "18:00" },
      rest: "",
    });
    expect(read("明日の19時以降")).toMatchObject({
      filters: { date: "2026-11-27", from: "19:00" },
    });
    expect(read("3000円以下のネイル")).toMatchObject({
      filters: { priceMax: 3000 },
      rest: "ネイル",
    });
    expect(read("今日のカット")).toMatchObject({ filters: { date: "2026-11-26" }, rest: "カット" });
  });

  it("lets the later of two words for the same condition win, and reads both", () => {
    expect(read("明日 今日")).toMatchObject({ filters: { date: "2026-11-26" }, rest: "" });
    expect(read("今週末 明日").filters).toEqual({ date: "2026-11-27" });
    expect(read("夕方 19時以降").filters).toEqual({ from: "19:00" });
    expect(read("夜 21時まで").filters).toEqual({ from: "18:00", to: "21:00" });
    expect(read("3000円以上 5000円以下").filters).toEqual({ priceMin: 3000, priceMax: 5000 });
    expect(read("5000円以上 3000円以下").filters).toEqual({ priceMax: 3000 });
  });

  it("leaves nothing to read in the rest (the page redirects once)", () => {
    for (const q of [
      "明日19時以降カット新宿",
      "カット明日夜",
      "明日の夜桜サロン",
      "3000円以下のネイル 土日営業",
      "夜20時以降も受付 明日",
      "カット、明日、渋谷",
    ]) {
      const { rest } = read(q);
      expect(read(rest).words, `${q} → ${rest}`).toEqual([]);
    }
  });
});

describe("readQueryWords: dates", () => {
  it.each([
    ["今日", "2026-11-26"],
    ["本日", "2026-11-26"],
    ["きょう", "2026-11-26"],
    ["明日", "2026-11-27"],
    ["あした", "2026-11-27"],
    ["あす", "2026-11-27"],
    ["明後日", "2026-11-28"],
    ["あさって", "2026-11-28"],
  ])("%s", (q, date) => {
    expect(read(q)).toEqual({
      words: [{ typed: q, filters: { date } }],
      filters: { date },
      rest: "",
    });
  });

  it.each(["今週末", "週末", "この週末", "土日", "今週の土日"])(
    "%s: the coming Saturday and Sunday",
    (q) => {
      expect(filters(q)).toEqual({ date: "2026-11-28", dateTo: "2026-11-29" });
      expect(filters(q, saturday)).toEqual({ date: "2026-11-28", dateTo: "2026-11-29" });
      expect(filters(q, sunday)).toEqual({ date: "2026-11-29" });
    },
  );

  it("来週末 and 来週の土曜: the weekend and the day of next week (weeks from Monday)", () => {
    expect(filters("来週末")).toEqual({ date: "2026-12-05", dateTo: "2026-12-06" });
    expect(filters("来週の土曜")).toEqual({ date: "2026-12-05" });
    expect(filters("来週月曜")).toEqual({ date: "2026-11-30" });
    expect(filters("来週の土曜", saturday)).toEqual({ date: "2026-12-05" });
    expect(filters("来週の土曜", sunday)).toEqual({ date: "2026-12-05" });
  });

  it.each([
    ["土曜", "2026-11-28"],
    ["土曜日", "2026-11-28"],
    ["日曜日", "2026-11-29"],
    ["月曜", "2026-11-30"],
    ["火曜日", "2026-12-01"],
    ["水曜", "2026-12-02"],
    ["金曜", "2026-11-27"],
  ])("%s: the next such day", (q, date) => {
    expect(filters(q)).toEqual({ date });
  });

  it("a weekday typed on that weekday: today, or the same day next week when today is over", () => {
    expect(filters("木曜")).toEqual({ date: "2026-11-26", nextWeek: "2026-12-03" });
    expect(filters("土曜日", saturday)).toEqual({ date: "2026-11-28", nextWeek: "2026-12-05" });
    const q = new URLSearchParams({ q: "木曜 カット" });
    expect(withQueryWords(q, thursday)?.get("date")).toBe("2026-11-26");
    expect(withQueryWords(q, thursday, "Asia/Tokyo", true)?.get("date")).toBe("2026-12-03");
    // Only the weekday word moves: a date typed after it wins, and 明日 never moves.
    expect(filters("木曜 12/10")).toEqual({ date: "2026-12-10" });
    const dated = new URLSearchParams({ q: "木曜 12/10" });
    expect(withQueryWords(dated, thursday, "Asia/Tokyo", true)?.get("date")).toBe("2026-12-10");
    const tomorrow = new URLSearchParams({ q: "明日 カット" });
    expect(withQueryWords(tomorrow, thursday, "Asia/Tokyo", true)?.get("date")).toBe("2026-11-27");
  });

  it.each([
    ["11月30日", "2026-11-30"],
    ["11/30", "2026-11-30"],
    ["12/3", "2026-12-03"],
    ["12月3日(木)", "2026-12-03"],
    ["12月3日（木曜）", "2026-12-03"],
    ["１２月３日", "2026-12-03"],
    ["2026年12月3日", "2026-12-03"],
    ["2026/12/3", "2026-12-03"],
    ["2026-12-03", "2026-12-03"],
    ["11月26日", "2026-11-26"],
    ["11月1日", "2027-11-01"],
    ["1/5", "2027-01-05"],
  ])("%s", (q, date) => {
    expect(filters(q)).toEqual({ date });
  });

  it("leaves an impossible date as a keyword", () => {
    for (const q of ["2月30日", "13/5", "11/31", "2026年2月29日", "4月31日"]) {
      expect(read(q)).toEqual({ words: [], filters: {}, rest: q });
    }
  });
});

describe("readQueryWords: times", () => {
  it.each([
    ["19時以降", { from: "19:00" }],
    ["19時から", { from: "19:00" }],
    ["19時〜", { from: "19:00" }],
    ["19時～", { from: "19:00" }],
    ["19:00以降", { from: "19:00" }],
    ["１９：００以降", { from: "19:00" }],
    ["19時半以降", { from: "19:30" }],
    ["19時15分から", { from: "19:15" }],
    ["夜8時以降", { from: "20:00" }],
    ["午後7時から", { from: "19:00" }],
    ["19時まで", { to: "19:00" }],
    ["19時前", { to: "19:00" }],
    ["18時〜20時", { from: "18:00", to: "20:00" }],
    ["18時から20時まで", { from: "18:00", to: "20:00" }],
    ["18〜20時", { from: "18:00", to: "20:00" }],
    ["夜", { from: "18:00" }],
    ["夕方", { from: "16:00", to: "18:00" }],
    ["午前中", { to: "12:00" }],
    ["午前", { to: "12:00" }],
    ["午後", { from: "12:00" }],
    ["朝", { to: "10:00" }],
  ])("%s", (q, expected) => {
    expect(read(q)).toMatchObject({ filters: expected, rest: "" });
  });

  it("reads 今夜 as today from 18:00", () => {
    expect(filters("今夜")).toEqual({ date: "2026-11-26", from: "18:00" });
  });

  it("leaves impossible or empty times as keywords", () => {
    for (const q of ["25時以降", "24時から", "19時70分以降", "20時〜18時", "0時まで"]) {
      expect(read(q).words).toEqual([]);
    }
  });
});

describe("readQueryWords: prices", () => {
  it.each([
    ["3000円以下", { priceMax: 3000 }],
    ["3000円まで", { priceMax: 3000 }],
    ["3,000円以内", { priceMax: 3000 }],
    ["～4000円", { priceMax: 4000 }],
    ["〜4000円", { priceMax: 4000 }],
    ["~4000円", { priceMax: 4000 }],
    ["5千円まで", { priceMax: 5000 }],
    ["千円まで", { priceMax: 1000 }],
    ["1万円以下", { priceMax: 10000 }],
    ["1.5万円以下", { priceMax: 15000 }],
    ["1万5千円以下", { priceMax: 15000 }],
    ["３０００円以下", { priceMax: 3000 }],
    ["5000円未満", { priceMax: 4999 }],
    ["3000円以上", { priceMin: 3000 }],
    ["3000円から", { priceMin: 3000 }],
    ["3000円〜", { priceMin: 3000 }],
    ["3000〜5000円", { priceMin: 3000, priceMax: 5000 }],
    ["3000円〜5000円", { priceMin: 3000, priceMax: 5000 }],
    ["1〜2万円", { priceMin: 10000, priceMax: 20000 }],
    ["5000〜1万円", { priceMin: 5000, priceMax: 10000 }],
  ])("%s", (q, expected) => {
    expect(read(q)).toMatchObject({ filters: expected, rest: "" });
  });

  it("leaves a price without a bound, or beyond the search's range, as a keyword", () => {
    for (const q of ["1000円カット", "3000円", "200万円以下", "1.23456万円以下"]) {
      expect(read(q).words).toEqual([]);
    }
  });
});

describe("readQueryWords: only whole words", () => {
  it.each([
    "夜桜サロン",
    "明日香",
    "土日営業",
    "土日祝",
    "夜20時以降も受付",
    "朝10時前から営業",
    "夜間",
    "深夜",
    "早朝",
    "きょうと",
    "今日からできるホームケア",
    "あすなろ",
    "土曜営業",
    "夜カット",
    "カット夜",
    "新宿明日",
    "朝霞",
    "午後の紅茶",
  ])("%s stays a keyword", (q) => {
    expect(read(q)).toEqual({ words: [], filters: {}, rest: q });
  });

  it("reads a word beside another script, not inside a word of its own", () => {
    expect(read("カット明日")).toMatchObject({ filters: { date: "2026-11-27" }, rest: "カット" });
    expect(read("明日カット")).toMatchObject({ filters: { date: "2026-11-27" }, rest: "カット" });
    expect(read("夜桜サロン 夜")).toMatchObject({ filters: { from: "18:00" }, rest: "夜桜サロン" });
  });
});

describe("withQueryWords", () => {
  const params = (query: string) => new URLSearchParams(query);

  it("turns the words into filters, the rest into q, and starts on page 1", () => {
    const out = withQueryWords(params("q=明日 19時以降 カット 新宿&page=3&genre=hair"), thursday);
    expect(Object.fromEntries(out ?? [])).toEqual({
      q: "カット 新宿",
      genre: "hair",
      date: "2026-11-27",
      from: "19:00",
    });
  });

  it("is null when the keyword has no such word", () => {
    expect(withQueryWords(params("q=カット"), thursday)).toBeNull();
    expect(withQueryWords(params("date=2026-11-27"), thursday)).toBeNull();
  });

  it("leaves a keyword too long to search to its message", () => {
    expect(withQueryWords(params(`q=明日 ${"カット".repeat(40)}`), thursday)).toBeNull();
  });

  it("drops q when nothing else was typed", () => {
    expect(withQueryWords(params("q=今週末"), thursday)?.toString()).toBe(
      "date=2026-11-28&dateTo=2026-11-29",
    );
  });

  it("lets what was typed win over the form", () => {
    const range = withQueryWords(params("q=明日&date=2026-12-01&dateTo=2026-12-03"), thursday);
    expect(range?.get("date")).toBe("2026-11-27");
    expect(range?.has("dateTo")).toBe(false);
    const late = withQueryWords(params("q=19時以降&from=10:00&to=12:00"), thursday);
    expect([late?.get("from"), late?.get("to")]).toEqual(["19:00", null]);
    const kept = withQueryWords(params("q=19時以降&to=22:00"), thursday);
    expect([kept?.get("from"), kept?.get("to")]).toEqual(["19:00", "22:00"]);
    const cheap = withQueryWords(params("q=3000円以下&priceMin=5000"), thursday);
    expect([cheap?.get("priceMin"), cheap?.get("priceMax")]).toEqual([null, "3000"]);
  });
});
