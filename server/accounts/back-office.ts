import type { Role } from "./current-user";

export type BackOfficeLink = { href: string; label: string };

/**
 * The back office a signed-in user may open from the account menu, or null.
 * The one place that decides it: the menu shows whatever this returns.
 */
export function backOfficeLink(role: Role): BackOfficeLink | null {
  switch (role) {
    case "admin":
      return { href: "/admin", label: "管理画面" };
    case "owner":
      // Owners get their /owner pages in a later issue; their link goes here then.
      return null;
    case "user":
      return null;
  }
}
