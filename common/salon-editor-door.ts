/**
 * The salon editor has two doors (issue 29, point 3; decision 0047): an
 * administrator opens any salon at /admin/salons/edit/{id}/…, the salon's
 * own people (owner, manager) open theirs at /owner/salons/{id}/…. Behind
 * either door is the same editor: the same pages, forms, saves and audit
 * entries. A door decides who is let in (server/admin/salon-editor-door.server.ts),
 * the addresses of the tabs (here: both sides link them) and the frame.
 */

export type EditorDoorKind = "admin" | "owner";

export const editorTabs = ["details", "staff", "menus", "coupons", "photos"] as const;
export type EditorTab = (typeof editorTabs)[number];

export const editorTabLabels: Record<EditorTab, string> = {
  details: "基本情報",
  staff: "スタッフ",
  menus: "メニュー",
  coupons: "クーポン",
  photos: "写真",
};

/** Each tab's address behind a door: the admin's 基本情報 is the editor's own address. */
export function editorPaths(kind: EditorDoorKind, salonId: string): Record<EditorTab, string> {
  const base = kind === "admin" ? `/admin/salons/edit/${salonId}` : `/owner/salons/${salonId}`;
  return {
    details: kind === "admin" ? base : `${base}/details`,
    staff: `${base}/staff`,
    menus: `${base}/menus`,
    coupons: `${base}/coupons`,
    photos: `${base}/photos`,
  };
}

/**
 * What only an administrator may do, refused in the owner door on the server
 * and not shown there: the salon's status (publish, suspend, back to draft)
 * and deleting it. The admin-only fields — the URL name (slug: the public
 * address, with its redirects and search engines' links) and which accounts
 * own it — are refused field by field in salon-details-door.server.ts, which
 * compares them with what is stored.
 */
export const adminOnlySalonIntents = ["publish", "suspend", "unpublish", "delete"] as const;
