/**
 * 日計 (end of day; issue 40 §4, decision 0082): its states and the bounds
 * of what a manager enters (the form, the server and the database's checks
 * read these).
 */
export const dayCloseStatuses = ["closed", "reopened"] as const;
export type DayCloseStatus = (typeof dayCloseStatuses)[number];

export const dayCloseBounds = {
  /** 釣銭準備金, yen. */
  openingFloat: { max: 1_000_000 },
  /** The cash counted in the drawer, yen. */
  countedCash: { max: 100_000_000 },
  /** A note on the difference (過不足の理由). */
  note: { max: 200 },
} as const;
