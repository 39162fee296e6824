/**
 * 会計 at the counter (issue 40, §4; decision 0079): the payment methods,
 * their labels, and the bounds every amount is checked against (the form,
 * the server and the database's checks read these).
 */
export const paymentMethods = ["cash", "card", "qr", "prepaid"] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** What the form offers: one method, or 組み合わせ (split across several). */
export const checkoutMethods = [...paymentMethods, "split"] as const;
export type CheckoutMethod = (typeof checkoutMethods)[number];

export const checkoutMethodLabels: Record<CheckoutMethod, string> = {
  cash: "現金",
  card: "カード",
  qr: "QR決済",
  prepaid: "事前決済（オンラインで支払い済み）",
  split: "組み合わせ",
};

export const checkoutLineKinds = ["menu", "nomination", "product"] as const;
export type CheckoutLineKind = (typeof checkoutLineKinds)[number];

export const checkoutBounds = {
  /** One line's price, yen, tax included. */
  linePrice: { min: 0, max: 1_000_000 },
  quantity: { min: 1, max: 99 },
  /** Retail lines on one 会計. */
  productLines: 20,
  /** The whole 会計, yen. */
  total: { max: 3_000_000 },
  /** Cash handed over, yen. */
  cashReceived: { max: 10_000_000 },
  productName: { max: 60 },
  productPrice: { min: 0, max: 1_000_000 },
} as const;

/** 内消費税: the 10 % consumption tax inside a tax-included amount, rounded down as receipts do. */
export function taxIncluded(amount: number): number {
  return Math.floor((amount * 10) / 110);
}

/** 適格請求書発行事業者登録番号: T and 13 digits. */
export const INVOICE_NUMBER = /^T\d{13}$/;
