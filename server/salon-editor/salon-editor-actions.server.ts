import type { AppContext } from "../context";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { lookupPostalCode } from "./postal-code.server";
import { SalonFieldError } from "./salon-basic-info-write.server";
import { createSalon } from "./salon-create.server";
import { deleteSalon } from "./salon-delete.server";
import { type AdminActor, SalonVersionConflictError } from "./salon-editor.server";
import {
  parseSalonForm,
  type SalonFormErrors,
  type SalonFormValues,
  salonFormValues,
} from "./salon-form";
import { changeSalonStatus, PublishRequirementsError } from "./salon-status.server";
import { updateSalon } from "./salon-update.server";

/**
 * One submit of the 基本情報 form (add or edit), whatever its button: the
 * route turns the outcome into a redirect or the form shown again with
 * every typed value.
 */
export type SalonFormOutcome =
  | { kind: "created"; salonId: string }
  | { kind: "saved"; done: "saved" | "published" | "suspended" | "unpublished" }
  | { kind: "deleted" }
  | {
      kind: "form";
      status: number;
      values: SalonFormValues;
      errors: SalonFormErrors;
      /** A notice that is not an error (the postal code was found). */
      notice?: string;
      missing?: string[];
    };

const intents = ["save", "lookup", "publish", "suspend", "unpublish", "delete"] as const;
type Intent = (typeof intents)[number];

/** Fills prefecture and 市区町村・町域 from the postal code, keeping what follows it. */
function withPostalAddress(values: SalonFormValues): {
  values: SalonFormValues;
  notice?: string;
  error?: string;
} {
  const address = lookupPostalCode(values.fields.postalCode ?? "");
  if (!address) {
    return {
      values,
      error: "この郵便番号の住所は見つかりませんでした。郵便番号を確認してください。",
    };
  }
  const head = `${address.city}${address.town}`;
  const line = values.fields.addressLine ?? "";
  const fields = {
    ...values.fields,
    postalCode: address.postalCode,
    prefectureCode: String(address.prefectureCode),
    addressLine: line.startsWith(head) ? line : head,
  };
  return {
    values: { ...values, fields },
    notice: `${address.prefecture}${head}を入力しました。番地と建物名を続けて入力してください。`,
  };
}

export async function submitSalonForm(
  ctx: Pick<AppContext, "db" | "redirects">,
  form: FormData,
  target: { salonId: string } | null,
  actor: AdminActor,
  now: Date,
): Promise<SalonFormOutcome> {
  const values = salonFormValues(form);
  const rawIntent = String(form.get("intent") ?? "save");
  const intent: Intent = (intents as readonly string[]).includes(rawIntent)
    ? (rawIntent as Intent)
    : "save";
  const show = (status: number, errors: SalonFormErrors, extra: Partial<SalonFormOutcome> = {}) =>
    ({ kind: "form", status, values, errors, ...extra }) as SalonFormOutcome;

  if (intent === "lookup") {
    const result = withPostalAddress(values);
    if (result.error) return show(422, { postalCode: result.error });
    return { kind: "form", status: 200, values: result.values, errors: {}, notice: result.notice };
  }

  const versionText = String(form.get("version") ?? "");
  const version = /^\d{1,9}$/.test(versionText) ? Number(versionText) : -1;
  try {
    if (!target) {
      if (intent !== "save") return show(400, { form: "操作の指定が正しくありません。" });
      const parsed = parseSalonForm(values);
      if (!parsed.ok) return show(400, parsed.errors);
      const salonId = await createSalon(ctx.db, parsed.input, actor, now);
      return { kind: "created", salonId };
    }
    const ref = { salonId: target.salonId, version };
    if (intent === "delete") {
      await deleteSalon(ctx.db, ref, actor, now);
      return { kind: "deleted" };
    }
    if (intent === "publish" || intent === "suspend" || intent === "unpublish") {
      const to = intent === "publish" ? "published" : intent === "suspend" ? "suspended" : "draft";
      await changeSalonStatus(ctx.db, ref, to, actor, now);
      return {
        kind: "saved",
        done:
          intent === "publish" ? "published" : intent === "suspend" ? "suspended" : "unpublished",
      };
    }
    const parsed = parseSalonForm(values);
    if (!parsed.ok) return show(400, parsed.errors);
    await updateSalon(ctx.db, ctx.redirects, ref, parsed.input, actor, now);
    return { kind: "saved", done: "saved" };
  } catch (error) {
    if (error instanceof SalonFieldError)
      return show(error.status, { [error.field]: error.message });
    if (error instanceof PublishRequirementsError) {
      return show(error.status, { form: error.message }, { missing: error.missing });
    }
    if (error instanceof SalonVersionConflictError) return show(409, { form: error.message });
    // A salon deleted meanwhile: the 404 screen, like a bad id.
    if (error instanceof NotFoundError) throw error;
    if (error instanceof DomainError) return show(error.status, { form: error.message });
    throw error;
  }
}
