/**
 * The salon staff roles' names as the back office and the invitation page
 * show them (decision 0045); the roles themselves are server/db/schema/members.ts's.
 */
export const memberRoleLabels = {
  manager: "マネージャー",
  reception: "受付",
  stylist: "スタイリスト",
} as const;

export type MemberRoleName = keyof typeof memberRoleLabels;

/** What each role may do, in one line (the members page's legend and the invitation page). */
export const memberRoleHints: Record<MemberRoleName, string> = {
  manager: "サロンのすべて（オーナー権限・スタッフの管理を除く）",
  reception: "予約台帳・予約の操作・電話や来店の予約・顧客（設定・書き出し・レポートを除く）",
  stylist: "自分の予約と勤務表のみ（お客様の電話番号・メールアドレスは表示されません）",
};
