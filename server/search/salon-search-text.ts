import { genreLabels, type SalonGenre } from "../../common/genres";
import { normalizeForSearch } from "./normalize";

/** What a salon is found by in keyword search (salons.search_text, pg_trgm). */
export type SalonSearchTextParts = {
  name: string;
  nameKana: string;
  genre: SalonGenre;
  areaName: string;
  areaKana: string;
  stationName?: string | null;
  stationKana?: string | null;
  /** Names of the salon's published menus, in their order. */
  menuNames: readonly string[];
  /** The one line every card shows (ボブが得意): what a visitor read, they may type. */
  catchCopy?: string | null;
};

/**
 * The one way salons.search_text is built: name, kana, area, station, genre
 * label, menu names and the catch copy, normalized like the visitor's
 * keyword. Written only by recomputeSalonDerived (server/salons/derived.server.ts).
 */
export function salonSearchText(parts: SalonSearchTextParts): string {
  return normalizeForSearch(
    [
      parts.name,
      parts.nameKana,
      parts.areaName,
      parts.areaKana,
      parts.stationName ?? "",
      parts.stationKana ?? "",
      genreLabels[parts.genre],
      ...parts.menuNames,
      parts.catchCopy ?? "",
    ].join(" "),
  );
}
