import { Link } from "react-router";
import { linkClass } from "../back-office-ui";

/** Where the thing an audit entry is about can be seen, for the kinds that have a page. */
function targetHref(entry: { targetType: string; targetId: string; salonId: string | null }) {
  if (entry.targetType === "redirect_rule") return `/admin/redirects?edit=${entry.targetId}`;
  if (entry.targetType === "photo" && entry.salonId)
    return `/admin/salons/edit/${entry.salonId}/photos`;
  if (entry.targetType === "review") return `/admin/reviews?review=${entry.targetId}`;
  if (entry.targetType === "payment_discrepancy") return "/admin/payments?view=resolved";
  return null;
}

const targetLabels: Record<string, string> = {
  redirect_rule: "リダイレクト",
  photo: "写真",
  review: "口コミ",
  payment_discrepancy: "決済の差異",
};

/** An audit entry's target other than a user: a link to its page when it has one. */
export function AuditTarget({
  entry,
}: {
  entry: { targetType: string; targetId: string; salonId: string | null };
}) {
  const href = targetHref(entry);
  const label = `${targetLabels[entry.targetType] ?? entry.targetType}:${entry.targetId}`;
  if (!href) return <>{label}</>;
  return (
    <Link to={href} className={`${linkClass} break-all`}>
      {label}
    </Link>
  );
}
