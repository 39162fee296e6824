import { NavLink } from "react-router";

/**
 * The salon editor is one salon seen through tabs, as a salon back office
 * shows it: each tab is its own page (and form), so a save touches one part
 * and works without JavaScript.
 */
export function salonEditorTabs(salonId: string) {
  const base = `/admin/salons/edit/${salonId}`;
  return [
    { to: base, label: "基本情報" },
    { to: `${base}/staff`, label: "スタッフ" },
    { to: `${base}/menus`, label: "メニュー" },
    { to: `${base}/coupons`, label: "クーポン" },
    { to: `${base}/photos`, label: "写真" },
  ];
}

export function SalonEditorTabs({ salonId, salonName }: { salonId: string; salonName: string }) {
  return (
    <nav aria-label={`${salonName}の編集メニュー`}>
      <ul className="flex flex-wrap gap-1 border-b border-neutral-300">
        {salonEditorTabs(salonId).map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `-mb-px inline-block rounded-t-lg border px-3 py-1.5 font-bold ${
                  isActive
                    ? "border-neutral-300 border-b-white bg-white text-brand-700"
                    : "border-transparent text-neutral-700 hover:bg-neutral-100"
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
