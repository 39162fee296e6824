import { type EditorDoorKind, type EditorTab, editorPaths } from "../../common/salon-editor-door";
import { requireAdmin } from "../accounts/guards";
import type { AppContext } from "../context";
import { requireSalonAccess } from "../salon-access/salon-access.server";
import { type EditorSalon, findSalonForEditor } from "./salon-editor.server";

/**
 * The two doors of the one salon editor (decision 0047): who guards it,
 * where its tabs live, which frame it is drawn in. Every editor page's
 * loader and action opens its door first and then does the same thing
 * whichever door it came through; the actor of the audit entries is the
 * person who came in (an administrator, or the salon's owner or manager).
 */

/** What the page needs of its door (plain data, sent to the browser). */
export type EditorDoorView = {
  kind: EditorDoorKind;
  paths: Record<EditorTab, string>;
};

export type EditorDoor = {
  view: EditorDoorView;
  salon: EditorSalon;
  actor: { id: string };
};

export type OpenEditorDoor = (
  request: Request,
  ctx: AppContext,
  idParam: string | undefined,
) => Promise<EditorDoor>;

/** /admin/salons/edit/{id}/…: an administrator, any salon (a malformed or unknown id: 404). */
export const adminDoor: OpenEditorDoor = async (request, ctx, idParam) => {
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, idParam ?? "");
  return {
    view: { kind: "admin", paths: editorPaths("admin", salon.id) },
    salon,
    actor: { id: admin.id },
  };
};

/**
 * /owner/salons/{id}/…: whoever holds salon.edit for this salon (its owner,
 * a manager, an administrator); anyone else and another salon's id get the
 * 404 screen, a guest signs in first (requireSalonAccess).
 */
export const ownerDoor: OpenEditorDoor = async (request, ctx, idParam) => {
  const access = await requireSalonAccess(request, ctx, idParam, "salon.edit");
  const salon = await findSalonForEditor(ctx.db, access.salon.id);
  return {
    view: { kind: "owner", paths: editorPaths("owner", salon.id) },
    salon,
    actor: { id: access.user.id },
  };
};
