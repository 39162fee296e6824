/**
 * The URL of a step of the booking flow (/salons/:id/confirm), which the
 * URL drives: the menus, stylist, coupon and day chosen so far, and the
 * hold once a time is picked. The page's links and the server's redirects
 * write it the same way.
 */
export type FlowLink = {
  menuIds: readonly string[];
  staffSlug: string | null;
  couponId: string | null;
  date?: string | null;
  holdId?: string | null;
};

export function bookingFlowHref(slug: string, link: FlowLink, extra: [string, string][] = []) {
  const query = flowQuery(link, extra);
  return query ? `/salons/${slug}/confirm?${query}` : `/salons/${slug}/confirm`;
}

/**
 * キャンセル待ちに登録 (/salons/:id/waitlist) for the flow's menus, stylist,
 * coupon and a full day: the same query, so a guest sent to sign in comes
 * back to the same choice.
 */
export function waitlistJoinHref(slug: string, link: FlowLink & { date: string }) {
  return `/salons/${slug}/waitlist?${flowQuery({ ...link, holdId: null }, [])}`;
}

function flowQuery(link: FlowLink, extra: [string, string][]) {
  const params = new URLSearchParams();
  for (const id of link.menuIds) params.append("menu", id);
  if (link.staffSlug) params.set("staff", link.staffSlug);
  if (link.couponId) params.set("coupon", link.couponId);
  if (link.date) params.set("date", link.date);
  if (link.holdId) params.set("hold", link.holdId);
  for (const [key, value] of extra) params.append(key, value);
  return params.toString();
}

/** The same menus, whatever their order (the times and the hold do not depend on it). */
export function sameMenus(a: readonly string[], b: readonly string[]) {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}
