/** A salon's status as the back office names it. */
export const salonStatusLabels: Record<"draft" | "published" | "suspended", string> = {
  draft: "下書き",
  published: "公開中",
  suspended: "利用停止中",
};
