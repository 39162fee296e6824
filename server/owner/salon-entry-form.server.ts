import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { isLocalDate, toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { menuStaff, menus, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import type { OwnerSalon, SalonAccess } from "../salon-access/salon-access.server";
import {
  blockReasons,
  blockSchema,
  MAX_ENTRY_MENUS,
  salonBookingSchema,
} from "./salon-entries.schema";
import {
  blockTime,
  type CustomerMatch,
  enterSalonBooking,
  findCustomers,
} from "./salon-entries.server";

/**
 * /owner/salons/{id}/bookings/new: the form the ledger's empty spots link
 * to (?staff=&date=&time=). The customer lookup is a GET of the same page
 * carrying everything typed so far (its button submits the whole form with
 * formmethod=get), so it works without JavaScript and nothing typed is lost;
 * the submit is a POST answered by the new row's page or by the form again.
 */

export const entryKinds = ["phone", "walk_in", "block"] as const;
export type EntryKind = (typeof entryKinds)[number];

/** The form as typed, by its field names (also the query's names). */
export type SalonEntryValues = {
  entry: EntryKind;
  staff: string;
  date: string;
  time: string;
  end: string;
  menu: string[];
  customer: string;
  name: string;
  kana: string;
  phone: string;
  email: string;
  requested: boolean;
  note: string;
  reason: string;
  text: string;
  outside: boolean;
};

const textFields = [
  "staff",
  "date",
  "time",
  "end",
  "customer",
  "name",
  "kana",
  "phone",
  "email",
  "note",
  "reason",
  "text",
] as const;

/** Form data or a query string, the same way: every value a bounded string. */
type Fields = { get(name: string): unknown; getAll(name: string): unknown[] };

function valuesOf(fields: Fields): SalonEntryValues {
  const text = (name: string, max = 254) => {
    const value = fields.get(name);
    return typeof value === "string" ? value.slice(0, max) : "";
  };
  const entry = text("entry");
  const typed = Object.fromEntries(
    textFields.map((name) => [name, text(name, name === "note" ? 1000 : 254)]),
  ) as Record<(typeof textFields)[number], string>;
  return {
    ...typed,
    entry: (entryKinds as readonly string[]).includes(entry) ? (entry as EntryKind) : "phone",
    menu: fields
      .getAll("menu")
      .filter((value): value is string => typeof value === "string")
      .map((value) => value.slice(0, 64))
      .slice(0, 20),
    // An unticked box is absent from a form; a form that was never sent says 指名あり.
    requested: fields.get("entry") === null ? true : fields.get("requested") === "on",
    outside: fields.get("outside") === "on",
  };
}

/** The page's first values: the ledger's ?staff=&date=&time=, or what a lookup carried. */
export function parseSalonEntryQuery(params: URLSearchParams, timeZone: string, now: Date) {
  const values = valuesOf(params);
  const local = toLocal(now, timeZone);
  if (!isLocalDate(values.date)) values.date = local.date;
  if (!values.time && values.entry === "walk_in" && values.date === local.date) {
    // A walk-in starts now: the current time, down to five minutes.
    const minutes = local.minutes - (local.minutes % 5);
    values.time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  }
  return { values, q: (params.get("q") ?? "").slice(0, 50), searched: params.has("q") };
}

export type EntryStylist = { id: string; name: string };
export type EntryMenu = {
  id: string;
  category: string;
  name: string;
  price: number;
  durationMinutes: number;
  /** The stylists who do it; null: anyone. */
  staffIds: string[] | null;
};

export type SalonEntryPageData = {
  salon: OwnerSalon;
  stylists: EntryStylist[];
  menus: EntryMenu[];
  values: SalonEntryValues;
  lookup: { q: string; searched: boolean; results: CustomerMatch[] };
  blockReasons: readonly string[];
  maxMenus: number;
};

async function stylistsAndMenus(db: Database, salonId: string) {
  const stylists = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  const menuRows = await db
    .select({
      id: menus.id,
      category: menus.category,
      name: menus.name,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
    })
    .from(menus)
    .where(and(eq(menus.salonId, salonId), eq(menus.published, true)))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  const abilities =
    menuRows.length === 0
      ? []
      : await db
          .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
          .from(menuStaff)
          .where(
            inArray(
              menuStaff.menuId,
              menuRows.map((menu) => menu.id),
            ),
          );
  const entryMenus: EntryMenu[] = menuRows.map((menu) => {
    const staffIds = abilities.filter((row) => row.menuId === menu.id).map((row) => row.staffId);
    return { ...menu, staffIds: staffIds.length > 0 ? staffIds : null };
  });
  return { stylists, menus: entryMenus };
}

/** The page: the salon's stylists and menus, what was typed, and the lookup's matches. */
export async function salonEntryPage(
  db: Database,
  access: SalonAccess,
  query: ReturnType<typeof parseSalonEntryQuery>,
): Promise<SalonEntryPageData> {
  const [parts, results] = await Promise.all([
    stylistsAndMenus(db, access.salon.id),
    findCustomers(db, access.salon.id, query.q),
  ]);
  return {
    salon: access.salon,
    ...parts,
    values: query.values,
    lookup: { q: query.q, searched: query.searched, results },
    blockReasons,
    maxMenus: MAX_ENTRY_MENUS,
  };
}

export type SalonEntryErrors = Partial<Record<keyof SalonEntryValues | "form", string>>;

export type SalonEntryOutcome =
  | { kind: "done"; location: string }
  | { kind: "form"; status: number; errors: SalonEntryErrors; values: SalonEntryValues };

/** Schema paths → the form's field names. */
const fieldOf: Record<string, keyof SalonEntryValues> = {
  source: "entry",
  staffId: "staff",
  date: "date",
  time: "time",
  from: "time",
  to: "end",
  menuIds: "menu",
  customerId: "customer",
  customer: "name",
  name: "name",
  kana: "kana",
  phone: "phone",
  email: "email",
  salonNote: "note",
  reason: "reason",
  text: "text",
};

function errorsOf(error: z.ZodError): SalonEntryErrors {
  const errors: SalonEntryErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    // customer.name → name; a missing customer as a whole → name.
    const key = path[0] === "customer" && path[1] ? path[1] : (path[0] ?? "form");
    const field = fieldOf[key] ?? "form";
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Where a refusal of the domain belongs on the form. */
function fieldOfCode(code: string): keyof SalonEntryValues | "form" {
  switch (code) {
    case "outside_schedule":
      return "outside";
    case "staff_not_available":
    case "staff_cannot_do_menu":
      return "staff";
    case "menu_not_available":
      return "menu";
    case "customer_not_found":
      return "customer";
    case "date_out_of_range":
      return "date";
    default:
      return "form";
  }
}

/** One submit of the form: a booking or a block, or the form again with why. */
export async function submitSalonEntryForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<SalonEntryOutcome> {
  const values = valuesOf(form);
  const salonId = access.salon.id;
  const actor = { userId: access.user.id };
  const refused = (errors: SalonEntryErrors, status: number): SalonEntryOutcome => ({
    kind: "form",
    status,
    errors,
    values,
  });
  try {
    if (values.entry === "block") {
      const parsed = blockSchema.safeParse({
        staffId: values.staff,
        date: values.date,
        from: values.time,
        to: values.end,
        reason: values.reason,
        text: values.text,
      });
      if (!parsed.success) return refused(errorsOf(parsed.error), 400);
      const block = await blockTime(db, salonId, parsed.data, actor, now);
      return { kind: "done", location: detailOf(salonId, block.id, "blocked") };
    }
    const known = values.customer !== "";
    const parsed = salonBookingSchema.safeParse({
      source: values.entry,
      staffId: values.staff,
      date: values.date,
      time: values.time,
      menuIds: values.menu.filter((id) => id !== ""),
      customerId: known ? values.customer : undefined,
      customer: known
        ? undefined
        : { name: values.name, kana: values.kana, phone: values.phone, email: values.email },
      staffRequested: values.requested,
      salonNote: values.note,
      allowOutsideSchedule: values.outside,
    });
    if (!parsed.success) return refused(errorsOf(parsed.error), 400);
    const booking = await enterSalonBooking(db, salonId, parsed.data, actor, now);
    return { kind: "done", location: detailOf(salonId, booking.id, "created") };
  } catch (error) {
    if (error instanceof DomainError) {
      return refused({ [fieldOfCode(error.code)]: error.message }, error.status);
    }
    throw error;
  }
}

/**
 * The new row's own page: what was saved (number, time, customer) is the
 * confirmation, and its actions and the ledger's day are one step away.
 */
function detailOf(salonId: string, bookingId: string, done: "created" | "blocked") {
  return `/owner/salons/${salonId}/bookings/${bookingId}?done=${done}`;
}
