import { data, redirect } from "react-router";
import type { AppContext } from "../context";
import type { Database } from "../db/client";
import type { EditorSalon } from "./salon-editor.server";
import type { OpenEditorDoor } from "./salon-editor-door.server";
import { type PartResult, salonTimeZone } from "./salon-parts.server";
import { listSalonPhotos, photoTagChoices } from "./salon-photos.server";
import { submitSalonPhotoForm } from "./salon-photos-form.server";

/**
 * What the loaders and actions of the スタッフ, メニュー and クーポン tab pages
 * share (decision 0018), behind either door of the editor (decision 0047):
 * the door's guard (an administrator, or the salon's owner or manager) and
 * the salon from the URL (a malformed, unknown or foreign id is the 404
 * screen), and for a POST the one form action of the tab, then a redirect
 * to the tab behind the same door, or the refusal.
 */

export type SalonPartTab = "staff" | "menus" | "coupons";

/** A tab's page data: the door, the salon, what `load` reads for it, and the outcome of the last save. */
export async function salonPartLoader<T extends object>(
  ctx: AppContext,
  request: Request,
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
  load: (salon: EditorSalon, query: URLSearchParams) => Promise<T>,
) {
  const { view: door, salon } = await openDoor(request, ctx, idParam);
  const query = new URL(request.url).searchParams;
  return { door, salon, ...(await load(salon, query)), done: query.get("done") };
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
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
  tab: SalonPartTab,
  formAction: PartFormAction,
) {
  const { view: door, salon, actor } = await openDoor(request, ctx, idParam);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const form = await request.formData();
  const result = await formAction(ctx.db, { id: salon.id, timeZone }, form, actor, new Date());
  if (result.ok) return redirect(partLocation(door.paths[tab], result));
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

/** The 写真 tab's page data behind either door. */
export async function salonPhotosLoader(
  ctx: AppContext,
  request: Request,
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
) {
  const { view: door, salon } = await openDoor(request, ctx, idParam);
  const [photos, tagChoices] = await Promise.all([
    listSalonPhotos(ctx.db, salon.id),
    photoTagChoices(ctx.db, salon.id),
  ]);
  return { door, salon, photos, tagChoices, done: new URL(request.url).searchParams.get("done") };
}

/** The 写真 tab's posts behind either door: a redirect to the tab, or the refusal. */
export async function salonPhotosAction(
  ctx: AppContext,
  request: Request,
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
) {
  const { view: door, salon, actor } = await openDoor(request, ctx, idParam);
  const form = await request.formData();
  const outcome = await submitSalonPhotoForm(ctx, salon, form, actor, new Date());
  if (outcome.kind === "done") return redirect(`${door.paths.photos}?done=${outcome.intent}`);
  const { errors, photoId, alt } = outcome;
  return data({ errors, photoId, alt }, { status: outcome.status });
}
