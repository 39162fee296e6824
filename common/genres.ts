import type { SalonGenre } from "../server/db/schema/salons";

/** Display names of salon genres, in the order the site lists them. */
export const genreLabels: Record<SalonGenre, string> = {
  hair: "ヘアサロン",
  nail: "ネイルサロン",
  eyelash: "まつげサロン",
  esthetic: "エステサロン",
  headspa: "ヘッドスパ",
};
