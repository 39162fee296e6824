/** The kinds of inquiry the contact form offers (stored as these slugs). */
export const contactCategories = ["booking", "account", "salon", "press", "other"] as const;

export const contactCategoryLabels: Record<(typeof contactCategories)[number], string> = {
  booking: "予約について",
  account: "会員登録・ログインについて",
  salon: "サロン掲載について",
  press: "取材・広報について",
  other: "その他",
};
