import { fieldErrors } from "../../common/field-rules";
import type { AppContext } from "../context";
import { DomainError } from "../errors/domain-error";
import type { AdminActor } from "./salon-editor.server";
import { type SalonPhotoAction, salonPhotoActionSchema } from "./salon-photos.schema";
import { applySalonPhotoAction } from "./salon-photos.server";

/** What a post to the 写真 tab ends in; the route maps it to a redirect or the page again. */
export type SalonPhotoFormOutcome =
  | { kind: "done"; intent: SalonPhotoAction["intent"] }
  | {
      kind: "form";
      status: number;
      errors: Record<string, string | undefined>;
      /** The photo whose form was sent (null for the upload form), and the description typed. */
      photoId: string | null;
      alt: string;
    };

/**
 * The 写真 tab's posts (upload, move, describe, delete): the form is
 * checked, then applySalonPhotoAction saves it with its audit entry; a
 * refusal comes back on the field it concerns.
 */
export async function submitSalonPhotoForm(
  ctx: Pick<AppContext, "db" | "photos" | "log">,
  salon: { id: string; name: string },
  form: FormData,
  admin: AdminActor,
  now: Date,
): Promise<SalonPhotoFormOutcome> {
  const text = Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  const failed = (errors: Record<string, string | undefined>, status: number) =>
    ({
      kind: "form",
      status,
      errors,
      photoId: text.photoId ?? null,
      alt: text.alt ?? "",
    }) as const;
  const parsed = salonPhotoActionSchema.safeParse(text);
  if (!parsed.success) return failed(fieldErrors<string>(parsed.error), 400);
  const upload = form.get("photo");
  const bytes =
    upload instanceof File && upload.size > 0 ? new Uint8Array(await upload.arrayBuffer()) : null;
  try {
    await applySalonPhotoAction(ctx.db, ctx.photos, salon, parsed.data, bytes, admin, now, ctx.log);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return failed(
      { [parsed.data.intent === "upload" ? "photo" : "form"]: error.message },
      error.status,
    );
  }
  return { kind: "done", intent: parsed.data.intent };
}
