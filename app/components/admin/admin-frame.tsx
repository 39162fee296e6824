import type { ReactNode } from "react";
import { BackOfficeBody, BackOfficeNav } from "../back-office-nav";

const sections = [
  { to: "/admin", label: "管理ホーム", end: true },
  { to: "/admin/owners", label: "オーナー", end: true },
  { to: "/admin/owners/add", label: "オーナーを追加", end: true },
  { to: "/admin/salons", label: "サロン", end: true },
  { to: "/admin/salons/add", label: "サロンを追加", end: true },
  { to: "/admin/redirects", label: "リダイレクト", end: true },
  { to: "/admin/reviews", label: "口コミ", end: true },
  { to: "/admin/payments", label: "決済の照合", end: true },
];

/** The back office frame: the admin menu and one h1. */
export function AdminFrame({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8">
      <BackOfficeNav label="管理メニュー" sections={sections} />
      <BackOfficeBody title={title} actions={actions}>
        {children}
      </BackOfficeBody>
    </div>
  );
}
