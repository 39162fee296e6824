/** Salon genres, in the order the site lists them (stored as these slugs). */
export const salonGenres = ["hair", "nail", "eyelash", "esthetic", "headspa"] as const;
export type SalonGenre = (typeof salonGenres)[number];

/** Display names of salon genres, in the order the site lists them. */
export const genreLabels: Record<SalonGenre, string> = {
  hair: "ヘアサロン",
  nail: "ネイルサロン",
  eyelash: "まつげサロン",
  esthetic: "エステサロン",
  headspa: "ヘッドスパ",
};
