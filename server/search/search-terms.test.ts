import { describe, expect, it } from "vitest";
import { salonSearchText } from "./salon-search-text";
import { keywordForms, salonSearchTerms } from "./search-terms";
import { searchedForms } from "./understand";
import { vocabulary } from "./vocabulary";

const text = (menuNames: string[], name = "Salon TEST") =>
  salonSearchText({
    name,
    nameKana: "さろん てすと",
    genre: "hair",
    areaName: "吉祥寺",
    areaKana: "きちじょうじ",
    menuNames,
  });

describe("salonSearchTerms", () => {
  it("gives the genre and each feature a token", () => {
    expect(
      salonSearchTerms({
        genre: "nail",
        featureSlugs: ["private-room", "near-station"],
        searchText: "",
      }),
    ).toEqual(["f:near-station", "f:private-room", "g:nail"]);
  });

  it("gives a dictionary keyword's token when its canonical form is in the text", () => {
    const terms = salonSearchTerms({
      genre: "hair",
      featureSlugs: [],
      searchText: text(["カット＋カラー"]),
    });
    expect(terms).toContain("k:カット");
    expect(terms).toContain("k:カラー");
    expect(terms).not.toContain("k:パーマ");
  });

  it("reads the catch copy as well as the menus", () => {
    const searchText = salonSearchText({
      name: "Salon TEST",
      nameKana: "さろん てすと",
      genre: "hair",
      areaName: "吉祥寺",
      areaKana: "きちじょうじ",
      menuNames: ["カット"],
      catchCopy: "ボブと白髪染めが得意なサロン",
    });
    expect(searchText).toContain("ぼぶと白髪染めが得意");
    expect(salonSearchTerms({ genre: "hair", featureSlugs: [], searchText })).toContain(
      "k:白髪染め",
    );
  });

  it("gives it for any of its searchFor spellings too", () => {
    // まつげエクステ is looked for as ラッシュ, エクステ and マツエク as well.
    const terms = salonSearchTerms({
      genre: "eyelash",
      featureSlugs: [],
      searchText: text(["フラットラッシュ 120本"]),
    });
    expect(terms).toContain("k:まつげエクステ");
    expect(terms).not.toContain("k:まつげパーマ");
  });

  it("matches across katakana and hiragana, and full and half width", () => {
    // Half-width katakana, full-width Latin; the text is normalized like the keyword.
    for (const menu of ["ｼﾞｪﾙﾈｲﾙ ワンカラー", "じぇるねいる", "ジェルネイル"]) {
      const terms = salonSearchTerms({ genre: "nail", featureSlugs: [], searchText: text([menu]) });
      expect(terms, menu).toContain("k:ジェルネイル");
    }
    // A raw (not yet normalized) text gives the same tokens as the normalized one.
    expect(
      salonSearchTerms({ genre: "nail", featureSlugs: [], searchText: "ＪＥＬ ﾏﾂｴｸ" }),
    ).toContain("k:まつげエクステ");
  });

  it("names a genre or feature only from the salon's rows, never from its text", () => {
    const terms = salonSearchTerms({
      genre: "hair",
      featureSlugs: [],
      searchText: text(["個室 ネイル"]),
    });
    expect(terms).toEqual(["g:hair"]);
  });

  it("looks for the same spellings the keyword query would", () => {
    // A token must stand for exactly the `like` it replaces (searchedForms in understand.ts):
    // every form the query looks for gives the token, and so does every longer one.
    for (const entry of vocabulary) {
      if (entry.kind !== "keyword") continue;
      const forms = keywordForms().find((k) => k.token === `k:${entry.canonical}`)?.forms ?? [];
      for (const form of searchedForms([entry.canonical, ...entry.searchFor])) {
        expect(forms, entry.canonical).toContain(form);
      }
      for (const form of forms) {
        const terms = salonSearchTerms({ genre: "hair", featureSlugs: [], searchText: form });
        expect(terms, `${entry.canonical}: ${form}`).toContain(`k:${entry.canonical}`);
      }
    }
  });
});
