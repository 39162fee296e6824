import type { SearchSort } from "./search-query";

/** Japanese labels for the search form's fixed choices. */
export const sortLabels: Record<SearchSort, string> = {
  recommended: "おすすめ順",
  rating: "評価が高い順",
  "price-asc": "価格が安い順",
  "price-desc": "価格が高い順",
  distance: "現在地から近い順",
};

export const priceChoices = [2000, 3000, 4000, 5000, 6000, 8000, 10000, 15000] as const;
export const ratingChoices = [3, 3.5, 4, 4.5] as const;
