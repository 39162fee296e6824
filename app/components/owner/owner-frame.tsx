import type { ReactNode } from "react";
import { NavLink } from "react-router";
import type { SalonCapability } from "../../../server/salon-access/salon-access.server";
import { BackOfficeBody, BackOfficeNav, type BackOfficeSection } from "../back-office-nav";

/** What every owner page's frame needs of its salon (from SalonAccess.salon). */
export type OwnerFrameSalon = { id: string; name: string; slug?: string; status?: string };

/**
 * The back office's sections for one salon; each owner page adds itself
 * here with the capability its route requires (decision 0045), so a role
 * sees only what it may open.
 */
function sectionsOf(salonId: string) {
  const base = `/owner/salons/${salonId}`;
  return [
    { to: base, label: "今日", end: true, capability: "ledger.read" },
    { to: `${base}/bookings`, label: "予約台帳", end: false, capability: "ledger.read" },
    { to: `${base}/customers`, label: "顧客", end: false, capability: "customers.manage" },
    { to: `${base}/schedules`, label: "勤務表", end: true, capability: "schedules.manage" },
    // A stylist's own month, read-only (decision 0046).
    { to: `${base}/schedules/mine`, label: "勤務表", end: true, capability: "schedules.request" },
    // The editor's first tab; its tab row leads to stylists, menus, coupons and photos (decision 0047).
    { to: `${base}/details`, label: "サロン情報", end: true, capability: "salon.edit" },
    // 会計's retail items and the receipts' registration number (decision 0079).
    { to: `${base}/products`, label: "店販・領収書", end: true, capability: "salon.edit" },
    // The day's 会計 closed by a manager (decision 0082).
    { to: `${base}/day-close`, label: "日計", end: true, capability: "dayclose.act" },
    { to: `${base}/reports`, label: "レポート", end: true, capability: "reports.read" },
    { to: `${base}/reviews`, label: "口コミ", end: true, capability: "reviews.reply" },
    // 設定 and its sub-page 設定 → Webhook (decision 0086).
    { to: `${base}/settings`, label: "設定", end: false, capability: "settings.manage" },
    { to: `${base}/members`, label: "メンバー", end: true, capability: "members.manage" },
  ] satisfies (BackOfficeSection & { capability: SalonCapability })[];
}

/** Without the role's capabilities, only what every role may read. */
const everyRole: readonly SalonCapability[] = ["ledger.read"];

/**
 * The salon back office's frame, drawn once by the layout route of
 * /owner/salons/{id} (app/routes/owner.salons.$id._layout.tsx) around the
 * page it matched: the salon's name (a link to its public page where the
 * page asks for one and the salon is published, and a switcher when the
 * person reaches several), and its menu. Each page draws its own heading
 * and body inside it (OwnerPage).
 */
export function OwnerFrame({
  salon,
  salons = [],
  capabilities = everyRole,
  publicLink = false,
  children,
}: {
  salon: OwnerFrameSalon;
  /** Every salon the person can reach (owned or staff), for the switcher; empty for an administrator. */
  salons?: readonly OwnerFrameSalon[];
  /** What the role may open here (ownerFrame()'s `capabilities`): the menu shows only those. */
  capabilities?: readonly SalonCapability[];
  /** The page shows the 公開ページを見る link (the page's `handle`, OwnerPageHandle). */
  publicLink?: boolean;
  children: ReactNode;
}) {
  const sections = sectionsOf(salon.id).filter((section) =>
    capabilities.includes(section.capability),
  );
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <p className="font-bold text-neutral-700">{salon.name}</p>
        {publicLink && salon.slug && salon.status === "published" ? (
          <a
            href={`/salons/${salon.slug}`}
            className="text-sm font-bold text-brand-700 underline underline-offset-4"
          >
            公開ページを見る
          </a>
        ) : null}
        {salons.length > 1 ? (
          <nav aria-label="サロンの切り替え">
            <ul className="flex flex-wrap gap-2 text-sm">
              {salons
                .filter((other) => other.id !== salon.id)
                .map((other) => (
                  <li key={other.id}>
                    <NavLink
                      to={`/owner/salons/${other.id}`}
                      className="font-bold text-brand-700 underline underline-offset-4"
                    >
                      {other.name}に切り替え
                    </NavLink>
                  </li>
                ))}
            </ul>
          </nav>
        ) : null}
      </div>
      <BackOfficeNav label="サロン管理メニュー" sections={sections} />
      {children}
    </div>
  );
}

/** What a page inside the frame may ask of it by its route's `handle`. */
export type OwnerPageHandle = { ownerFrame?: { publicLink?: boolean } };

/** One page inside the frame: its h1 (and the actions beside it) and its body. */
export function OwnerPage({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <BackOfficeBody title={title} actions={actions}>
      {children}
    </BackOfficeBody>
  );
}
