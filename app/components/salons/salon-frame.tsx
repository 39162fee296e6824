import { type ReactNode, useEffect, useRef } from "react";
import { Link, useOutletContext, useRouteLoaderData } from "react-router";
import { bookingFlowHref } from "../../../common/booking-flow-href";
import { genreLabels } from "../../../common/genres";
import type { BookingVia, SalonFrame } from "../../../server/salons/salon-sections";
import { breadcrumbJsonLd } from "../../lib/json-ld";
import { Breadcrumbs } from "../breadcrumbs";
import { FavoriteToggle, favoriteState } from "../favorites/favorite-toggle";
import { JsonLd } from "../json-ld";
import { SalonRating } from "./salon-rating";

/** The salon's pages, each its own URL (issue 31, decision 0057), in the tab bar's order. */
export const salonTabs = [
  { tab: "top", label: "トップ", path: "" },
  { tab: "coupons", label: "クーポン・メニュー", path: "/coupons" },
  { tab: "styles", label: "スタイル", path: "/styles" },
  { tab: "stylists", label: "スタッフ", path: "/stylists" },
  { tab: "reviews", label: "口コミ", path: "/reviews" },
  { tab: "access", label: "地図・アクセス", path: "/access" },
] as const;

export type SalonTab = (typeof salonTabs)[number]["tab"];

const tabOf = (tab: SalonTab) => salonTabs.find((entry) => entry.tab === tab) ?? salonTabs[0];

/** The tab's canonical path (what meta and the sitemap name). */
export function salonTabPath(slug: string, tab: SalonTab) {
  return `/salons/${slug}${tabOf(tab).path}`;
}

/** The tab's link, keeping the coupon or menu the visitor came with. */
export function salonTabHref(slug: string, tab: SalonTab, via: BookingVia | null) {
  const path = salonTabPath(slug, tab);
  return via ? `${path}?${new URLSearchParams({ [via.kind]: via.id })}` : path;
}

/** Into the booking flow, with the coupon or menu the visitor came with. */
export function salonBookingHref(slug: string, via: BookingVia | null) {
  return bookingFlowHref(slug, {
    menuIds: via?.kind === "menu" ? [via.id] : [],
    staffSlug: null,
    couponId: via?.kind === "coupon" ? via.id : null,
  });
}

const bookingLabel = (via: BookingVia | null) =>
  via?.kind === "coupon"
    ? "このクーポンで予約する"
    : via?.kind === "menu"
      ? "このメニューで予約する"
      : "予約する";

/** The page title's words for a tab: 「○○のクーポン・メニュー」, the salon's name on トップ. */
export function salonTabTitle(name: string, tab: SalonTab) {
  return tab === "top" ? name : `${name}の${tabOf(tab).label}`;
}

type FrameSalon = Pick<SalonFrame, "salon" | "area" | "prefecture" | "station">;

/** The layout route of the salon's tabs (app/routes/salons.$id._layout.tsx), by its id. */
export const SALON_LAYOUT_ROUTE = "routes/salons.$id._layout";

/** What each tab route declares as its `handle`: which tab the layout's frame marks current. */
export type SalonTabHandle = { salonTab: SalonTab };

/**
 * The frame the layout route read, for a tab's meta (its title and
 * description name the salon): the layout's loader data among the matches.
 */
export function salonFrameFromMatches(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): SalonFrame | undefined {
  return matches.find((match) => match?.id === SALON_LAYOUT_ROUTE)?.loaderData as
    | SalonFrame
    | undefined;
}

/** The frame the layout route read, for a tab's page (its links keep the coupon or menu). */
export function useSalonFrame() {
  return useOutletContext<SalonFrame>();
}

/**
 * What every tab of a salon's pages shares: the breadcrumbs, the salon's
 * header (with 予約する on wide screens), the tab bar that stays at the top
 * while scrolling, and on phones the 予約する bar that stays at the bottom.
 */
export function SalonFrameView({
  frame,
  via,
  favorites,
  tab,
  children,
}: {
  frame: FrameSalon;
  via: BookingVia | null;
  favorites: readonly string[] | null;
  tab: SalonTab;
  children: ReactNode;
}) {
  const { salon, area, prefecture, station } = frame;
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  const trail = [
    { name: "トップ", path: "/" },
    { name: "エリア一覧", path: "/area" },
    { name: area.name, path: `/area/${area.slug}` },
    { name: salon.name, path: `/salons/${salon.slug}` },
    ...(tab === "top" ? [] : [{ name: tabOf(tab).label, path: salonTabPath(salon.slug, tab) }]),
  ];
  const bookHref = salonBookingHref(salon.slug, via);
  return (
    <div className="mx-auto max-w-5xl px-4 pt-8">
      <JsonLd data={breadcrumbJsonLd(trail, origin)} />
      <Breadcrumbs items={trail} />
      {/* A phone gives the name the whole width and puts the buttons under it: beside
          them (flex-1 from a basis of 0 never wraps) the name had a few pixels, a letter a line. */}
      <header className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start sm:gap-4">
        <div className="min-w-0 sm:flex-1">
          <p className="text-sm text-neutral-700">
            {genreLabels[salon.genre]}・{prefecture.name} {area.name}
            {station ? `・${station.name}駅` : ""}
          </p>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">
            {salon.name}
            {tab === "top" ? null : (
              <span className="ml-1 text-lg font-normal sm:text-xl">の{tabOf(tab).label}</span>
            )}
          </h1>
          <p className="text-sm text-neutral-700">{salon.nameKana}</p>
          <p className="mt-2">
            <SalonRating
              ratingAverage={salon.ratingAverage}
              reviewCount={salon.reviewCount}
              reviewsHref={salonTabHref(salon.slug, "reviews", via)}
            />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 sm:shrink-0 sm:flex-col sm:items-end">
          <FavoriteToggle
            salonSlug={salon.slug}
            salonName={salon.name}
            state={favoriteState(favorites, salon.slug)}
            size="large"
          />
          <Link
            to={bookHref}
            className="hidden min-h-11 items-center rounded-lg bg-brand-700 px-6 py-2 font-bold text-white hover:bg-brand-800 sm:inline-flex"
          >
            {bookingLabel(via)}
          </Link>
        </div>
      </header>
      <SalonTabBar slug={salon.slug} current={tab} via={via} />
      <div className="pb-8">{children}</div>
      <BookingBar href={bookHref} via={via} />
    </div>
  );
}

/**
 * The tabs as plain links (each a page; the back button returns to the
 * previous one). It sticks to the top of the screen; on a phone it scrolls
 * sideways, brought to the current tab once the page runs.
 */
function SalonTabBar({
  slug,
  current,
  via,
}: {
  slug: string;
  current: SalonTab;
  via: BookingVia | null;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    // Again on every tab: the layout route keeps the bar mounted as the visitor moves.
    const element = list.current;
    const active = element?.children[salonTabs.findIndex((entry) => entry.tab === current)]
      ?.firstElementChild as HTMLElement | null | undefined;
    if (!element || !active) return;
    const left = active.offsetLeft - element.offsetLeft;
    if (
      left < element.scrollLeft ||
      left + active.offsetWidth > element.scrollLeft + element.clientWidth
    )
      element.scrollLeft = Math.max(0, left - 16);
  }, [current]);
  return (
    <nav
      aria-label="サロン内のページ"
      className="sticky top-0 z-20 -mx-4 mt-4 border-b border-neutral-300 bg-white"
    >
      <ul ref={list} className="flex overflow-x-auto px-2 whitespace-nowrap">
        {salonTabs.map((entry) => {
          const isCurrent = entry.tab === current;
          return (
            <li key={entry.tab} className="shrink-0">
              <Link
                to={salonTabHref(slug, entry.tab, via)}
                aria-current={isCurrent ? "page" : undefined}
                className={`flex min-h-11 items-center border-b-4 px-3 text-sm font-bold sm:px-4 sm:text-base ${
                  isCurrent
                    ? "border-brand-700 text-brand-700"
                    : "border-transparent text-neutral-800 hover:border-neutral-300"
                }`}
              >
                {entry.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * While a page shows the 予約する bar, the document ends with room for it, so
 * it never covers the footer's last line or the page's last content. A style
 * hoisted into the head (React's precedence, as root.tsx's own CSS), since
 * the footer and the body belong to the shell; a phone only, like the bar.
 */
const barRoom =
  "@media (max-width: 639.98px){body:has(.salon-booking-bar){padding-bottom:calc(4.5rem + env(safe-area-inset-bottom))}}";

/**
 * 予約する fixed at the bottom of a phone's screen on every tab (from `sm`
 * up the header's button takes its place), above the tab bar and below the
 * loading overlay; it books with the coupon or menu the visitor came with.
 */
function BookingBar({ href, via }: { href: string; via: BookingVia | null }) {
  return (
    <div className="salon-booking-bar fixed inset-x-0 bottom-0 z-30 border-t border-neutral-300 bg-white px-4 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:hidden">
      <style href="salon-booking-bar" precedence="default">
        {barRoom}
      </style>
      <Link
        to={href}
        className="flex min-h-12 w-full flex-col items-center justify-center rounded-lg bg-brand-700 px-4 py-1 text-center font-bold text-white hover:bg-brand-800"
      >
        {bookingLabel(via)}
        {via ? (
          <span className="block max-w-full truncate text-xs font-normal">{via.title}</span>
        ) : null}
      </Link>
    </div>
  );
}
