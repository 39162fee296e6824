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
  subtotal: number;
  coupon: { title: string; discount: number } | null;
  total: number;
  cancelCutoffHours: number;
};
