import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useRouteLoaderData } from "react-router";
import type { BackOfficeLink } from "../../server/accounts/back-office";

type HeaderUser = { name: string; backOffice: BackOfficeLink | null };

/** Site-wide header: logo, keyword search entry and the account menu. */
export function SiteHeader() {
  const user = (useRouteLoaderData("root") as { user?: HeaderUser | null } | undefined)?.user;
  return (
    <header className="border-b border-neutral-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-3">
        <Link to="/" className="text-xl font-bold text-brand-700">
          <span aria-hidden="true">✂ </span>Salon Navi
          <span className="sr-only">（トップページ）</span>
        </Link>
        <Form
          method="get"
          action="/salons/search"
          role="search"
          className="order-3 flex w-full min-w-0 md:order-none md:w-auto md:flex-1"
        >
          <label htmlFor="header-search" className="sr-only">
            サロン名・エリア・駅名・メニューで探す
          </label>
          <input
            id="header-search"
            type="search"
            name="q"
            placeholder="サロン名・エリア・駅名・メニュー"
            className="min-w-0 flex-1 rounded-l-lg border border-neutral-400 px-3 py-2"
          />
          <button
            type="submit"
            className="rounded-r-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800"
          >
            検索
          </button>
        </Form>
        {/* Beside the logo on phones, taking what room is left so a long name truncates. */}
        <nav aria-label="アカウント" className="flex min-w-0 flex-1 justify-end md:flex-none">
          {user ? <AccountMenu user={user} /> : null}
          <ul hidden={Boolean(user)} className="flex items-center gap-3 text-sm">
            <li>
              <Link to="/signin" className="underline-offset-4 hover:underline">
                ログイン
              </Link>
            </li>
            <li>
              <Link
                to="/signup"
                className="rounded-lg border border-brand-700 px-3 py-1.5 font-bold text-brand-700 hover:bg-brand-50"
              >
                会員登録
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

const menuLink = "block rounded px-2 py-1.5 hover:bg-neutral-100";

/**
 * Signed-in menu, the visitor's マイページ: bookings, favorites, the account
 * and, for those who have one, the back office. A <details> disclosure, so it
 * opens with the keyboard and without JavaScript. A long name (or the address, before the profile is
 * filled in) is cut with an ellipsis on screen; the accessible name and the
 * tooltip keep it whole.
 */
function AccountMenu({ user: { name, backOffice } }: { user: HeaderUser }) {
  // The header outlives client navigations: close the menu once one of its links was followed.
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (menu.current && pathname) menu.current.open = false;
  }, [pathname]);
  return (
    <details ref={menu} className="relative min-w-0 text-sm">
      <summary
        title={`${name} 様`}
        className="flex cursor-pointer items-center gap-1 rounded-lg border border-neutral-400 px-3 py-1.5 md:max-w-xs"
      >
        <span className="sr-only">アカウントメニュー：</span>
        <span className="min-w-0 truncate">{name}</span> <span className="shrink-0">様</span>
        <span aria-hidden="true" className="shrink-0">
          ▾
        </span>
      </summary>
      <ul className="absolute right-0 z-10 mt-2 flex w-48 flex-col gap-1 rounded-lg border border-neutral-300 bg-white p-2 shadow">
        <li>
          <Link to="/account/history" className={menuLink}>
            予約履歴
          </Link>
        </li>
        <li>
          <Link to="/account/favorite" className={menuLink}>
            お気に入り
          </Link>
        </li>
        <li>
          <Link to="/account/edit" className={menuLink}>
            アカウント編集
          </Link>
        </li>
        {backOffice ? (
          <li className="border-t border-neutral-200 pt-1">
            <Link to={backOffice.href} className={menuLink}>
              {backOffice.label}
            </Link>
          </li>
        ) : null}
        <li>
          <Form method="post" action="/signout">
            <button
              type="submit"
              className="w-full rounded px-2 py-1.5 text-left hover:bg-neutral-100"
            >
              ログアウト
            </button>
          </Form>
        </li>
      </ul>
    </details>
  );
}
