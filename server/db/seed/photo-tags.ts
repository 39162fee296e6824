import type { Random } from "./random";

type Taggable = { staffId?: string | null; menuId?: string | null };

/**
 * スタイル (issue 31): some demo photos name the stylist who did the style
 * and its menu, as a salon tags them in its photo editor. A menu only some
 * stylists do (`menuStaff`) is tagged with one of them. `rng` is the salon's
 * own generator (`photo-tag:<salon index>`), so nothing else of the seed
 * changes.
 */
export function tagSeedPhotos(
  photos: Taggable[],
  stylists: readonly { id?: string }[],
  salonMenus: readonly { id?: string }[],
  menuStaff: readonly { menuId: string; staffId: string }[],
  rng: Random,
): void {
  for (const photo of photos) {
    if (!rng.chance(0.6) || stylists.length === 0 || salonMenus.length === 0) continue;
    const menuId = rng.pick(salonMenus).id;
    const limitedTo = menuStaff.filter((row) => row.menuId === menuId).map((row) => row.staffId);
    const candidates =
      limitedTo.length > 0 ? stylists.filter((s) => s.id && limitedTo.includes(s.id)) : stylists;
    if (!menuId || candidates.length === 0) continue;
    photo.menuId = menuId;
    photo.staffId = rng.pick(candidates).id ?? null;
  }
}
