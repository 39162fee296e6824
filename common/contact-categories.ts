import type { contactCategories } from "../server/db/schema/content";

export const contactCategoryLabels: Record<(typeof contactCategories)[number], string> = {
  booking: "予約について",
  account: "会員登録・ログインについて",
  salon: "サロン掲載について",
  press: "取材・広報について",
  other: "その他",
};
