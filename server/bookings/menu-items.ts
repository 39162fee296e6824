import { menus } from "../db/schema";

/**
 * A bookable menu as the salon and stylist pages list it and the booking
 * flow offers it. Here, below both: the salon pages read the free times of
 * bookings/, so bookings/ must not import from salons/.
 */
export const menuItemColumns = {
  id: menus.id,
  category: menus.category,
  name: menus.name,
  description: menus.description,
  price: menus.price,
  durationMinutes: menus.durationMinutes,
};

export type MenuItem = {
  id: string;
  category: string;
  name: string;
  description: string;
  price: number;
  durationMinutes: number;
};

/** Menus in display order, grouped by category in order of first appearance. */
export function groupMenus(items: MenuItem[]): { category: string; menus: MenuItem[] }[] {
  const groups = new Map<string, MenuItem[]>();
  for (const item of items) {
    const list = groups.get(item.category) ?? [];
    list.push(item);
    groups.set(item.category, list);
  }
  return [...groups].map(([category, list]) => ({ category, menus: list }));
}
