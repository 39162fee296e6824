import { data, redirect } from "react-router";
import { bookingRuleFields } from "../../common/booking-rules-fields";
import { adminOnlySalonIntents } from "../../common/salon-editor-door";
import type { AppContext } from "../context";
import { readSalon, valuesOf } from "./salon-basic-info-read.server";
import { submitSalonForm } from "./salon-editor-actions.server";
import type { EditorDoor, OpenEditorDoor } from "./salon-editor-door.server";
import { salonFormValues } from "./salon-form";
import { loadSalonEditor } from "./salon-update.server";

/**
 * The 基本情報 tab behind either door (decision 0047): the same page data
 * and the same save (submitSalonForm, decision 0017). Behind the owner door
 * what only an administrator may change is neither shown nor accepted: the
 * salon's status and deletion (the status panel's intents), its URL name
 * (slug) and its owners. The page does not offer them; a post that tries
 * is refused (403) and changes nothing, and the save keeps the stored slug
 * and owners whatever else the form carries. The booking rules are edited
 * on the owner's 設定 page (decision 0048), not here: the save keeps them too.
 */

/** The page data: for the salon's own people, without the list of every owner account. */
export async function salonDetailsLoader(
  ctx: AppContext,
  request: Request,
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
) {
  const { view: door, salon } = await openDoor(request, ctx, idParam);
  const done = new URL(request.url).searchParams.get("done");
  const page = await loadSalonEditor(ctx.db, salon.id);
  if (door.kind === "admin") return { door, ...page, done };
  return {
    door,
    ...page,
    values: { ...page.values, ownerIds: [] },
    options: { ...page.options, owners: [] },
    done,
  };
}

const adminOnlyMessage =
  "公開状態の変更、サロンの削除、URL名（スラッグ）とオーナーの変更は運営者だけが行えます。";

/**
 * What the owner door refuses: an admin-only intent, a slug other than the
 * stored one, or any owner field. Null when the post keeps to the rest.
 */
async function ownerDoorRefusal(ctx: AppContext, door: EditorDoor, form: FormData) {
  const intent = String(form.get("intent") ?? "save");
  if ((adminOnlySalonIntents as readonly string[]).includes(intent)) return adminOnlyMessage;
  const slug = form.get("slug");
  if (slug !== null && String(slug).trim().toLowerCase() !== door.salon.slug) {
    return adminOnlyMessage;
  }
  const addOwner = String(form.get("addOwnerId") ?? "").trim();
  if (form.getAll("ownerIds").length > 0 || addOwner !== "") {
    // The stored owners, posted unchanged (a form saved from the admin page), are no change.
    const stored = (await readSalon(ctx.db, door.salon.id, null)).ownerIds;
    const posted = [...new Set(form.getAll("ownerIds").map(String))].sort();
    if (addOwner !== "" || JSON.stringify(posted) !== JSON.stringify([...stored].sort())) {
      return adminOnlyMessage;
    }
  }
  return null;
}

/**
 * The owner door's save: the stored slug, owners and booking rules go with
 * the form, whatever it carried.
 */
async function withStoredAdminFields(ctx: AppContext, door: EditorDoor, form: FormData) {
  const stored = await readSalon(ctx.db, door.salon.id, null);
  const values = valuesOf(stored);
  for (const field of bookingRuleFields) form.set(field, values.fields[field] ?? "");
  form.set("slug", stored.salon.slug);
  form.delete("ownerIds");
  for (const id of stored.ownerIds) form.append("ownerIds", id);
  form.set("addOwnerId", "");
}

/** A post of the 基本情報 form: a redirect, or the form again with what was typed. */
export async function salonDetailsAction(
  ctx: AppContext,
  request: Request,
  idParam: string | undefined,
  openDoor: OpenEditorDoor,
) {
  const door = await openDoor(request, ctx, idParam);
  const { salon } = door;
  const form = await request.formData();
  // The version the form was loaded with stays in the form: after a refused
  // save, saving again must be refused too until the page is reloaded.
  const versionText = String(form.get("version") ?? "");
  const version = /^\d{1,9}$/.test(versionText) ? Number(versionText) : salon.version;
  const fromStatusPanel = (adminOnlySalonIntents as readonly string[]).includes(
    String(form.get("intent")),
  );
  if (door.view.kind === "owner") {
    const refusal = await ownerDoorRefusal(ctx, door, form);
    if (refusal) {
      const values = salonFormValues(form);
      return data(
        {
          values: { ...values, ownerIds: [] },
          errors: { form: refusal } as Record<string, string | undefined>,
          notice: undefined as string | undefined,
          missing: undefined as string[] | undefined,
          fromStatusPanel: false,
          version,
          conflict: false,
          key: crypto.randomUUID(),
        },
        { status: 403 },
      );
    }
    await withStoredAdminFields(ctx, door, form);
  }
  const outcome = await submitSalonForm(ctx, form, { salonId: salon.id }, door.actor, new Date());
  if (outcome.kind === "deleted") return redirect("/admin/salons?done=deleted");
  if (outcome.kind === "saved") return redirect(`${door.view.paths.details}?done=${outcome.done}`);
  if (outcome.kind !== "form") throw new Error("unexpected outcome");
  const { status, values, errors, notice, missing } = outcome;
  const conflict = status === 409 && errors.form !== undefined;
  return data(
    {
      values: door.view.kind === "owner" ? { ...values, ownerIds: [] } : values,
      errors,
      notice,
      missing,
      // The status buttons are their own small forms: their errors go above the form.
      fromStatusPanel,
      version,
      conflict,
      key: crypto.randomUUID(),
    },
    { status },
  );
}
