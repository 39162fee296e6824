import { useEffect, useState } from "react";
import { Link, useFetcher, useLocation } from "react-router";

/** on/off for a signed-in visitor; guest: a link to sign in and come back. */
export type FavoriteState = "on" | "off" | "guest";

/**
 * A card's heart from a loader's `favoritesAmong` answer: the signed-in
 * visitor's favorite slugs among the listed salons, or null for a guest.
 */
export function favoriteState(favorites: readonly string[] | null, slug: string): FavoriteState {
  if (favorites === null) return "guest";
  return favorites.includes(slug) ? "on" : "off";
}

/**
 * The heart on a salon card and the salon page. A POST form to
 * /account/favorite that works without JavaScript (the action redirects
 * back here); with JavaScript it is sent by a fetcher, so the page stays
 * where it is and the button flips at once.
 */
export function FavoriteToggle({
  salonSlug,
  salonName,
  state,
  size = "small",
}: {
  salonSlug: string;
  salonName: string;
  state: FavoriteState;
  size?: "small" | "large";
}) {
  const location = useLocation();
  const fetcher = useFetcher();
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const here = `${location.pathname}${location.search}`;
  const look =
    size === "large"
      ? "inline-flex items-center gap-2 rounded-lg border border-brand-700 px-4 py-2 font-bold"
      : "inline-flex items-center gap-1 rounded-full border border-brand-700 px-3 py-1 text-sm font-bold";
  if (state === "guest") {
    return (
      <Link
        to={`/signin?redirect=${encodeURIComponent(here)}`}
        className={`${look} text-brand-700 hover:bg-brand-50`}
      >
        <span aria-hidden="true">♡</span>
        ログインしてお気に入りに追加
        <span className="sr-only">（{salonName}）</span>
      </Link>
    );
  }
  const pending = fetcher.formData?.get("intent");
  const on = pending ? pending === "add" : state === "on";
  return (
    <fetcher.Form method="post" action="/account/favorite" className="inline">
      <input type="hidden" name="salon" value={salonSlug} />
      <input type="hidden" name="intent" value={on ? "remove" : "add"} />
      <input type="hidden" name="redirect" value={here} />
      {enhanced ? <input type="hidden" name="stay" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={on}
        className={`${look} ${on ? "bg-brand-700 text-white hover:bg-brand-800" : "text-brand-700 hover:bg-brand-50"}`}
      >
        <span aria-hidden="true">{on ? "♥" : "♡"}</span>
        お気に入り
        <span className="sr-only">（{salonName}）</span>
      </button>
    </fetcher.Form>
  );
}
