import { data, redirect } from "react-router";
import { requireAdmin } from "../accounts/guards";
import type { AppContext } from "../context";
import type { Database } from "../db/client";
import { type EditorSalon, findSalonForEditor } from "./salon-editor.server";
import { type PartResult, salonTimeZone } from "./salon-parts.server";

/**
 * What the loaders and actions of the スタッフ, メニュー and クーポン tab pages
 * share (decision 0018): the admin guard (auth-full, admin-only, SPEC.md §2),
 * the salon from the URL (a malformed or unknown id is the 404 screen), and
 * for a POST the one form action of the tab, then a redirect or the refusal.
 */

export type SalonPartTab = "staff" | "menus" | "coupons";

/** A tab's page data: the salon, what `load` reads for it, and the outcome of the last save. */
export async function salonPartLoader<T extends object>(
  ctx: AppContext,
  request: Request,
  idParam: string,
  load: (salon: EditorSalon, query: URLSearchParams) => Promise<T>,
) {
  await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, idParam);
  const query = new URL(request.url).searchParams;
  return { salon, ...(await load(salon, query)), done: query.get("done") };
}

type PartFormAction = (
  db: Database,
  salon: { id: string; timeZone: string },
  form: FormData,
  actor: { id: string },
  now: Date,
) => Promise<PartResult>;

/**
 * A tab's POST: a save redirects to the tab's page with ?done=… (and what
 * it opens, e.g. ?staff=…); a refusal is answered with its 4xx status and
 * shown by the form it names.
 */
export async function salonPartAction(
  ctx: AppContext,
  request: Request,
  idParam: string,
  tab: SalonPartTab,
  formAction: PartFormAction,
) {
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, idParam);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const form = await request.formData();
  const result = await formAction(ctx.db, { id: salon.id, timeZone }, form, admin, new Date());
  if (result.ok) return redirect(partLocation(`/admin/salons/edit/${salon.id}/${tab}`, result));
  return data(result, { status: result.status });
}

/** "?done=…&staff=…" of the page after a save. */
export function partLocation(
  path: string,
  result: { done: string; query?: Record<string, string> },
) {
  const params = new URLSearchParams({ ...(result.query ?? {}), done: result.done });
  return `${path}?${params}`;
}
