/**
 * What the booking summary shows: built by the server (hold step, thanks page)
 * and rendered by BookingSummary, so both sides share this one shape.
 */
export type BookingSummaryData = {
  salonName: string;
  menus: { name: string; price: number; durationMinutes: number }[];
  /** null: 指名なし (the salon assigns a stylist). */
  stylistName: string | null;
  /** ISO instants. */
  start: string;
  end: string;
  timeZone: string;
  /** The menus' prices added up. */
  subtotal: number;
  /** 指名料 of the chosen stylist (0: none, and always for 指名なし); not discounted (decision 0047). */
  nominationFee: number;
  /** The coupon's discount, on the menus only. */
  coupon: { title: string; discount: number } | null;
  /** What the visitor pays: subtotal − discount + nominationFee. */
  total: number;
  cancelCutoffHours: number;
};
