import { describe, expect, it } from "vitest";
import { areaSeeds } from "../db/seed/data/areas";
import { buildLexicon, type PlaceRow, searchedForms, understandQuery } from "./understand";
import { placeSpellings, vocabulary } from "./vocabulary";

const lexicon = buildLexicon([]);
const meaningOf = (word: string) => {
  const terms = understandQuery(word, lexicon);
  expect(terms).toHaveLength(1);
  return terms[0];
};

describe("the search vocabulary", () => {
  for (const entry of vocabulary) {
    it(`${entry.canonical}: every variant means the same (${entry.variants.join("、")})`, () => {
      const canonical = meaningOf(entry.canonical);
      for (const variant of entry.variants)
        expect(meaningOf(variant)).toMatchObject({ kind: entry.kind, label: canonical?.label });
      if (entry.kind === "genre") expect(canonical).toMatchObject({ genre: entry.genre });
      if (entry.kind === "feature") expect(canonical).toMatchObject({ feature: entry.feature });
      if (entry.kind === "keyword") {
        expect(canonical).toMatchObject({
          about: entry.about,
          variants: searchedForms([entry.canonical, ...entry.searchFor]),
        });
      }
    });
  }

  it("gives no spelling two meanings", () => {
    const owners = new Map<string, string>();
    for (const entry of vocabulary) {
      for (const variant of entry.variants) {
        const key = variant.normalize("NFKC").toLowerCase();
        expect(owners.get(key) ?? entry.canonical, `${variant}`).toBe(entry.canonical);
        owners.set(key, entry.canonical);
      }
    }
  });

  it("names only genres and features that exist", async () => {
    const { salonGenres } = await import("../../common/genres");
    const { featureSeeds } = await import("../db/seed/data/features");
    for (const entry of vocabulary) {
      if (entry.kind === "genre") expect(salonGenres).toContain(entry.genre);
      if (entry.kind === "feature")
        expect(featureSeeds.map((f) => f.slug)).toContain(entry.feature);
    }
  });
});

describe("the words of the issue", () => {
  it.each([
    ["マツエク", "keyword", "まつげエクステ"],
    ["まつげエクステ", "keyword", "まつげエクステ"],
    ["まつ毛", "genre", "まつげサロン"],
    ["まつげ", "genre", "まつげサロン"],
    ["美容院", "genre", "ヘアサロン"],
    ["美容室", "genre", "ヘアサロン"],
    ["ヘアサロン", "genre", "ヘアサロン"],
    ["ジェルネイル", "keyword", "ジェルネイル"],
    ["白髪染め", "keyword", "白髪染め"],
    ["縮毛矯正", "keyword", "縮毛矯正"],
    ["眉毛", "keyword", "眉毛"],
    ["アイブロウ", "keyword", "眉毛"],
    ["メンズ", "feature", "メンズ歓迎"],
    ["個室", "feature", "個室"],
    ["駅近", "feature", "駅近"],
    ["キッズスペース", "feature", "子連れ歓迎"],
    ["ﾏﾂｴｸ", "keyword", "まつげエクステ"],
  ])("%s is a %s (%s)", (word, kind, label) => {
    expect(meaningOf(word)).toMatchObject({ kind, label });
  });
});

describe("other spellings of places", () => {
  const seedPlaces: PlaceRow[] = areaSeeds.flatMap((area) => [
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
  ]);
  const seedLexicon = buildLexicon(seedPlaces);

  for (const [name, spellings] of Object.entries(placeSpellings)) {
    it(`${spellings.join("、")} include the place ${name} of the data`, () => {
      const [place, ...others] = understandQuery(name, seedLexicon);
      expect(others).toEqual([]);
      if (place?.kind !== "place") throw new Error(`${name} is not a place`);
      for (const spelling of spellings) {
        const meaning = understandQuery(spelling, seedLexicon);
        expect(meaning, spelling).toEqual([
          expect.objectContaining({
            kind: "place",
            areaIds: expect.arrayContaining(place.areaIds),
            stationIds: expect.arrayContaining(place.stationIds),
          }),
        ]);
      }
    });
  }

  it("名古屋 is the city: both its areas and its station", () => {
    expect(understandQuery("名古屋", seedLexicon)).toEqual([
      expect.objectContaining({ areaIds: ["sakae-yabacho", "meieki"], stationIds: ["nagoya"] }),
    ]);
  });

  it("難波 stands for both the area part and the station なんば", () => {
    expect(understandQuery("難波", seedLexicon)).toEqual([
      expect.objectContaining({ areaIds: ["shinsaibashi-namba"], stationIds: ["namba"] }),
    ]);
  });
});
