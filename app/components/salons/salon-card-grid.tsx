import type { SalonCard } from "../../../server/salons/salon-card";
import { favoriteState } from "../favorites/favorite-toggle";
import { SalonCardItem } from "./salon-card-item";

/** Salon cards in a responsive grid; `ranked` numbers them for rankings. */
export function SalonCardGrid({
  salons,
  favorites,
  ranked = false,
}: {
  salons: SalonCard[];
  /** The visitor's favorites among them (`favoritesAmong`); null for a guest. */
  favorites: string[] | null;
  ranked?: boolean;
}) {
  const List = ranked ? "ol" : "ul";
  return (
    <List className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {salons.map((salon, index) => (
        <li key={salon.slug} className="flex flex-col">
          {ranked ? <p className="mb-1 font-bold text-brand-700">{index + 1}位</p> : null}
          <SalonCardItem
            salon={salon}
            headingLevel={2}
            priority={index === 0}
            favorite={favoriteState(favorites, salon.slug)}
          />
        </li>
      ))}
    </List>
  );
}
