import { useFetcher, useLocation } from "react-router";
import { type Theme, themeLabels, themes } from "../../lib/theme";

/**
 * Light, dark or the device's setting. A plain form that works without
 * JavaScript (the action sets the cookie and redirects back); with it, the
 * fetcher applies the choice at once without leaving the page, and the
 * redirect's navigation keeps the scroll position (the visitor is at the
 * footer, where the switcher is).
 */
export function ThemeSwitcher({ theme }: { theme: Theme }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const current = typeof pending === "string" ? pending : theme;
  return (
    <fetcher.Form
      method="post"
      action="/preferences/theme"
      preventScrollReset
      className="flex items-center gap-2"
    >
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">表示テーマ</legend>
        <span aria-hidden="true" className="text-sm">
          表示テーマ：
        </span>
        {themes.map((value) => (
          <button
            key={value}
            type="submit"
            name="theme"
            value={value}
            aria-pressed={current === value}
            className="rounded-full border border-neutral-400 px-3 py-1 text-sm aria-pressed:border-brand-700 aria-pressed:bg-brand-700 aria-pressed:font-bold aria-pressed:text-white"
          >
            {themeLabels[value]}
          </button>
        ))}
      </fieldset>
    </fetcher.Form>
  );
}
