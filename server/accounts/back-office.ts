import type { Role } from "./current-user";

export type BackOfficeLink = { href: string; label: string };

/**
 * The back office a signed-in user may open from the account menu, or null.
 * The one place that decides it: the menu shows whatever this returns.
 */
export function backOfficeLink(role: Role, salonStaff = false): BackOfficeLink | null {
  switch (role) {
    case "admin":
      return { href: "/admin", label: "管理画面" };
    case "owner":
      // /owner opens on the first of their salons (decision 0043).
      return { href: "/owner", label: "サロン管理" };
    case "user":
      // A salon's staff (decision 0045): /owner opens the salon they work at.
      return salonStaff ? { href: "/owner", label: "サロン管理" } : null;
  }
}
