import type { ReactNode } from "react";
import { NavLink } from "react-router";

export type BackOfficeSection = { to: string; label: string; end: boolean };

/** The section menu of a back office (admin, salon): the current section filled in. */
export function BackOfficeNav({
  label,
  sections,
}: {
  label: string;
  sections: readonly BackOfficeSection[];
}) {
  return (
    <nav aria-label={label} className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive }) =>
                `inline-block rounded-lg border px-3 py-1.5 font-bold ${
                  isActive
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 text-neutral-800 hover:bg-neutral-100"
                }`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The page's heading row and body, below the menu. */
export function BackOfficeBody({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{title}</h1>
        {actions}
      </div>
      <div className="mt-6 flex flex-col gap-8">{children}</div>
    </>
  );
}
