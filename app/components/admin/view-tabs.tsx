import { Link } from "react-router";

/** The admin lists' view switch (口コミ, 決済の照合): links with the current one marked. */
export function ViewTabs<View extends string>({
  label,
  path,
  tabs,
  current,
}: {
  label: string;
  /** The list's page; each tab adds ?view=. */
  path: string;
  tabs: readonly { view: View; label: string }[];
  current: View;
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {tabs.map((tab) => {
          const isCurrent = current === tab.view;
          return (
            <li key={tab.view}>
              <Link
                to={`${path}?view=${tab.view}`}
                aria-current={isCurrent ? "page" : undefined}
                className={`inline-block rounded-lg border px-3 py-2 font-bold ${
                  isCurrent
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 hover:bg-neutral-100"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
