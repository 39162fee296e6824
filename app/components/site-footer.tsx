import { Link } from "react-router";
import type { Theme } from "../lib/theme";
import { ThemeSwitcher } from "./shell/theme-switcher";

const links = [
  { to: "/about", label: "Salon Naviについて" },
  { to: "/company", label: "運営会社" },
  { to: "/articles", label: "特集・記事" },
  { to: "/contact", label: "お問い合わせ" },
  { to: "/user-policy", label: "利用規約" },
  { to: "/privacy-policy", label: "プライバシーポリシー" },
];

export function SiteFooter({ theme }: { theme: Theme }) {
  return (
    <footer className="mt-16 border-t border-neutral-200 bg-neutral-50">
      <div className="mx-auto max-w-6xl px-4 py-8">
        <nav aria-label="フッター">
          <ul className="flex flex-wrap gap-x-6 gap-y-3 text-sm">
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="underline-offset-4 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-6">
          <ThemeSwitcher theme={theme} />
        </div>
        <p className="mt-6 text-xs text-neutral-700">© 2026 Salon Navi Inc.</p>
      </div>
    </footer>
  );
}
