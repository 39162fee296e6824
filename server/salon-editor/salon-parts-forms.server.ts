import type { z } from "zod";
import { fieldErrors } from "../../common/field-rules";
import type { Database } from "../db/client";
import { createCoupon, deleteCoupon, retireCoupon, updateCoupon } from "./salon-coupons.server";
import {
  createMenu,
  deleteMenu,
  moveMenu,
  setMenuPublished,
  updateMenu,
} from "./salon-menus.server";
import {
  couponSchema,
  menuSchema,
  parseSchedule,
  scheduleFieldNames,
  staffExceptionSchema,
  staffSchema,
  versionField,
} from "./salon-parts.schema";
import {
  fieldsOf,
  type PartResult,
  refused,
  refusedBy,
  type SalonPartEdit,
} from "./salon-parts.server";
import {
  createStaff,
  deleteStaff,
  moveStaff,
  setStaffActive,
  updateStaff,
} from "./salon-staff.server";
import { addStaffException, deleteStaffException } from "./salon-staff-exceptions.server";
import { deleteSchedule, saveSchedule } from "./salon-staff-schedules.server";

/**
 * The POSTs of the three tabs: which button was pressed (`intent`), the
 * form's fields checked by their schema, one domain call. A refusal keeps
 * every typed value and says which form it belongs to; the route only
 * redirects or answers the refusal.
 */

type EditorSalon = { id: string; timeZone: string };
type Actor = { id: string };

const intentOf = (form: FormData) => String(form.get("intent") ?? "");
const idOf = (form: FormData, key: string) => String(form.get(key) ?? "").slice(0, 100);

function editOf(
  form: FormData,
  salon: EditorSalon,
  actor: Actor,
  now: Date,
): SalonPartEdit | { error: string } {
  const version = versionField.safeParse(form.get("version") ?? "");
  if (!version.success) {
    return { error: version.error.issues[0]?.message ?? "" };
  }
  return { salonId: salon.id, version: version.data, actor: { id: actor.id }, now };
}

const unknownIntent = (values: Record<string, string | string[]>) =>
  refused("list", values, { form: "操作の指定が正しくありません。画面を読み込み直してください。" });

async function attempt(
  form: string,
  values: Record<string, string | string[]>,
  edit: SalonPartEdit,
  run: () => Promise<Omit<Extract<PartResult, { ok: true }>, "ok">>,
): Promise<PartResult> {
  try {
    return { ok: true, ...(await run()) };
  } catch (error) {
    const result = refusedBy(error, form, values);
    // A conflict keeps the version the page was loaded with, also without JavaScript.
    return !result.ok && result.conflict ? { ...result, version: edit.version } : result;
  }
}

type Parsed<T> =
  | { success: true; data: T }
  | { success: false; errors: Record<string, string | undefined> };

/** A schema's verdict on the typed values, its messages by field. */
function checked<T>(schema: z.ZodType<T>, values: unknown): Parsed<T> {
  const parsed = schema.safeParse(values);
  return parsed.success ? parsed : { success: false, errors: fieldErrors(parsed.error) };
}

/**
 * A form with typed fields: refused for a bad version, then for the fields
 * (`parsed`, from its schema), else saved; every refusal keeps the values.
 */
async function save<T>(
  form: string,
  values: Record<string, string | string[]>,
  edit: SalonPartEdit | { error: string },
  parsed: Parsed<T>,
  run: (edit: SalonPartEdit, input: T) => Promise<Omit<Extract<PartResult, { ok: true }>, "ok">>,
): Promise<PartResult> {
  if ("error" in edit) return refused(form, values, { form: edit.error });
  if (!parsed.success) return refused(form, values, parsed.errors);
  const input = parsed.data;
  return attempt(form, values, edit, () => run(edit, input));
}

const staffFields = [
  "name",
  "kana",
  "role",
  "profile",
  "photoUrl",
  "yearsOfExperience",
  "nominationFee",
  "specialties",
] as const;

/** POST /admin/salons/edit/:id/staff */
export async function staffFormAction(
  db: Database,
  salon: EditorSalon,
  form: FormData,
  actor: Actor,
  now: Date,
): Promise<PartResult> {
  const intent = intentOf(form);
  const staffId = idOf(form, "staffId");
  const edit = editOf(form, salon, actor, now);
  const keep = { staffId, intent };
  if (intent === "staff-create" || intent === "staff-update") {
    const values = { ...fieldsOf(form, staffFields, ["menuIds"]), ...keep };
    return save("staff", values, edit, checked(staffSchema, values), async (edit, input) => {
      const member =
        intent === "staff-create"
          ? await createStaff(db, edit, input)
          : await updateStaff(db, edit, staffId, input);
      return {
        done: intent === "staff-create" ? "staff-created" : "staff-updated",
        query: { staff: member.id },
      };
    });
  }
  if (intent === "schedule-save") {
    const pattern = idOf(form, "pattern");
    const values = {
      ...fieldsOf(form, ["validFrom", "validUntil", ...scheduleFieldNames]),
      ...keep,
      pattern,
    };
    const parsed = parseSchedule(values as Record<string, string>);
    return save(`schedule:${pattern}`, values, edit, parsed, async (edit, input) => {
      await saveSchedule(db, edit, staffId, pattern, input);
      return { done: "schedule-saved", query: { staff: staffId } };
    });
  }
  if (intent === "exception-add") {
    const values = { ...fieldsOf(form, ["date", "kind", "startsAt", "endsAt", "note"]), ...keep };
    const parsed = checked(staffExceptionSchema, values);
    return save("exception", values, edit, parsed, async (edit, input) => {
      await addStaffException(db, { ...edit, timeZone: salon.timeZone }, staffId, input);
      return { done: "exception-added", query: { staff: staffId } };
    });
  }
  // The row buttons: nothing typed but the button itself.
  const values = {
    ...keep,
    pattern: idOf(form, "pattern"),
    exceptionId: idOf(form, "exceptionId"),
  };
  if ("error" in edit) return refused("list", values, { form: edit.error });
  const query = { staff: staffId };
  switch (intent) {
    case "staff-up":
    case "staff-down":
      return attempt("list", values, edit, async () => {
        await moveStaff(db, edit, staffId, intent === "staff-up" ? "up" : "down");
        return { done: "staff-moved", query: {} };
      });
    case "staff-retire":
    case "staff-reinstate":
      return attempt("list", values, edit, async () => {
        await setStaffActive(db, edit, staffId, intent === "staff-reinstate");
        return { done: intent === "staff-retire" ? "staff-retired" : "staff-reinstated", query };
      });
    case "staff-delete":
      return attempt("list", values, edit, async () => {
        await deleteStaff(db, edit, staffId);
        return { done: "staff-deleted", query: {} };
      });
    case "schedule-delete":
      return attempt("list", values, edit, async () => {
        await deleteSchedule(db, edit, staffId, values.pattern);
        return { done: "schedule-deleted", query };
      });
    case "exception-delete":
      return attempt("list", values, edit, async () => {
        await deleteStaffException(db, edit, staffId, values.exceptionId);
        return { done: "exception-deleted", query };
      });
    default:
      return unknownIntent(values);
  }
}

const menuFields = [
  "category",
  "name",
  "description",
  "price",
  "durationMinutes",
  "staffScope",
  "prepaymentExempt",
] as const;

/** POST /admin/salons/edit/:id/menus */
export async function menuFormAction(
  db: Database,
  salon: EditorSalon,
  form: FormData,
  actor: Actor,
  now: Date,
): Promise<PartResult> {
  const intent = intentOf(form);
  const menuId = idOf(form, "menuId");
  const edit = editOf(form, salon, actor, now);
  const keep = { menuId, intent };
  if (intent === "menu-create" || intent === "menu-update") {
    const values = { ...fieldsOf(form, menuFields, ["staffIds"]), ...keep };
    return save("menu", values, edit, checked(menuSchema, values), async (edit, input) => {
      if (intent === "menu-create") await createMenu(db, edit, input);
      else await updateMenu(db, edit, menuId, input);
      return {
        done: intent === "menu-create" ? "menu-created" : "menu-updated",
        query: {},
      };
    });
  }
  const values = keep;
  if ("error" in edit) return refused("list", values, { form: edit.error });
  switch (intent) {
    case "menu-up":
    case "menu-down":
      return attempt("list", values, edit, async () => {
        await moveMenu(db, edit, menuId, intent === "menu-up" ? "up" : "down");
        return { done: "menu-moved", query: {} };
      });
    case "menu-retire":
    case "menu-reinstate":
      return attempt("list", values, edit, async () => {
        await setMenuPublished(db, edit, menuId, intent === "menu-reinstate");
        return {
          done: intent === "menu-retire" ? "menu-retired" : "menu-reinstated",
          query: {},
        };
      });
    case "menu-delete":
      return attempt("list", values, edit, async () => {
        await deleteMenu(db, edit, menuId);
        return { done: "menu-deleted", query: {} };
      });
    default:
      return unknownIntent(values);
  }
}

const couponFields = [
  "title",
  "description",
  "discountKind",
  "discountValue",
  "conditions",
  "target",
  "oncePerCustomer",
  "fromTime",
  "untilTime",
  "staffId",
  "studentOnly",
  "validFrom",
  "validUntil",
  "prepaymentExempt",
] as const;

/** POST /admin/salons/edit/:id/coupons */
export async function couponFormAction(
  db: Database,
  salon: EditorSalon,
  form: FormData,
  actor: Actor,
  now: Date,
): Promise<PartResult> {
  const intent = intentOf(form);
  const couponId = idOf(form, "couponId");
  const edit = editOf(form, salon, actor, now);
  const keep = { couponId, intent };
  if (intent === "coupon-create" || intent === "coupon-update") {
    const values = { ...fieldsOf(form, couponFields, ["menuIds", "weekdays"]), ...keep };
    return save("coupon", values, edit, checked(couponSchema, values), async (edit, input) => {
      if (intent === "coupon-create") await createCoupon(db, edit, input);
      else await updateCoupon(db, edit, couponId, input);
      return {
        done: intent === "coupon-create" ? "coupon-created" : "coupon-updated",
        query: {},
      };
    });
  }
  const values = keep;
  if ("error" in edit) return refused("list", values, { form: edit.error });
  switch (intent) {
    case "coupon-retire":
      return attempt("list", values, edit, async () => {
        await retireCoupon(db, { ...edit, timeZone: salon.timeZone }, couponId);
        return { done: "coupon-retired", query: {} };
      });
    case "coupon-delete":
      return attempt("list", values, edit, async () => {
        await deleteCoupon(db, edit, couponId);
        return { done: "coupon-deleted", query: {} };
      });
    default:
      return unknownIntent(values);
  }
}
