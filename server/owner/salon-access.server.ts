import { and, asc, eq } from "drizzle-orm";
import { redirect } from "react-router";
import { isUuid } from "../../common/uuid";
import type { AccountServices } from "../accounts/account-services";
import { type CurrentUser, getCurrentUser } from "../accounts/current-user";
import { pathOf } from "../accounts/request-info";
import type { Database } from "../db/client";
import { type SalonMemberRole, type SalonStatus, salonOwners, salons } from "../db/schema";
import { NotFoundError, UnauthenticatedError } from "../errors/domain-error";
import { notFound } from "../routing/not-found";

/**
 * Who may open a salon's back office (issue 28, point 1; decision 0037).
 * One check, called by every owner page, action and /api/owner call: an
 * owner for the salons linked to them (salon_owners), an administrator for
 * any salon. Anyone else, and any other salon's id, gets the same 404 as a
 * salon that does not exist, so ids reveal nothing. A suspended (banned)
 * account has no session at all (current-user.ts), so it is a guest here.
 *
 * Roles are a list of what each may do, so part 2's staff roles (manager,
 * reception, stylist) add rows here instead of checks in every route.
 */

/** The salon's owner, an administrator, or one of the salon's staff roles (decision 0045). */
export type SalonAccessRole = "owner" | "admin" | SalonMemberRole;

export const salonCapabilities = [
  /** Read the day, the ledger, bookings and their history (a stylist: their own column). */
  "ledger.read",
  /** Mark arrived / completed / no-show, cancel, move, note. */
  "bookings.act",
  /** Enter phone and walk-in bookings and blocked time. */
  "bookings.enter",
  /** The customers (顧客カルテ): read, note, merge. */
  "customers.manage",
  /** Take the salon's customer list away as CSV (owner and manager only). */
  "customers.export",
  /** Take the salon's bookings away as CSV for the accountant (owner and manager only). */
  "bookings.export",
  /** The reports page: amounts, utilisation, cancellations, customers. */
  "reports.read",
  /** The salon's settings: booking rules, approval, where notices go. */
  "settings.manage",
  /** The editor's tabs: 基本情報, stylists, menus, coupons, photos. */
  "salon.edit",
  /** Every stylist's weekly schedule, exceptions and the salon's closures. */
  "schedules.manage",
  /** A stylist's own schedule: read it and ask for a change. */
  "schedules.request",
  /** Invite people, change their role, remove them (ownership: the owner only). */
  "members.manage",
] as const;
export type SalonCapability = (typeof salonCapabilities)[number];

const managerCapabilities: readonly SalonCapability[] = salonCapabilities.filter(
  (capability) => capability !== "members.manage" && capability !== "schedules.request",
);

/** The one table of who may do what (decision 0045); a test walks it against every route. */
export const capabilitiesOf: Record<SalonAccessRole, readonly SalonCapability[]> = {
  owner: [...managerCapabilities, "members.manage"],
  admin: [...managerCapabilities, "members.manage"],
  manager: managerCapabilities,
  reception: ["ledger.read", "bookings.act", "bookings.enter", "customers.manage"],
  stylist: ["ledger.read", "schedules.request"],
};

export type OwnerSalon = {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  status: SalonStatus;
};

export type SalonAccess = {
  user: CurrentUser;
  salon: OwnerSalon;
  role: SalonAccessRole;
};

const salonColumns = {
  id: salons.id,
  slug: salons.slug,
  name: salons.name,
  timeZone: salons.timeZone,
  status: salons.status,
};

/** The user's access to the salon, or null (no such salon, or not theirs). */
export async function salonAccessFor(
  db: Database,
  user: CurrentUser,
  salonId: string,
): Promise<SalonAccess | null> {
  if (!isUuid(salonId)) return null;
  if (user.role === "admin") {
    const [salon] = await db.select(salonColumns).from(salons).where(eq(salons.id, salonId));
    return salon ? { user, salon, role: "admin" } : null;
  }
  if (user.role !== "owner") return null;
  const [salon] = await db
    .select(salonColumns)
    .from(salonOwners)
    .innerJoin(salons, eq(salons.id, salonOwners.salonId))
    .where(and(eq(salonOwners.userId, user.id), eq(salonOwners.salonId, salonId)));
  return salon ? { user, salon, role: "owner" } : null;
}

/** Whether this access allows the capability. */
export function can(access: SalonAccess, capability: SalonCapability): boolean {
  return capabilitiesOf[access.role].includes(capability);
}

/** The salons an owner runs, by name; an administrator picks a salon from /admin/salons instead. */
export async function ownedSalons(db: Database, user: CurrentUser): Promise<OwnerSalon[]> {
  if (user.role !== "owner") return [];
  return db
    .select(salonColumns)
    .from(salonOwners)
    .innerJoin(salons, eq(salons.id, salonOwners.salonId))
    .where(eq(salonOwners.userId, user.id))
    .orderBy(asc(salons.name), asc(salons.id));
}

/** What every owner page's frame shows: this salon, and the owner's salons for the switcher. */
export async function ownerFrame(db: Database, access: SalonAccess) {
  const salons = await ownedSalons(db, access.user);
  return {
    salon: { id: access.salon.id, name: access.salon.name },
    salons: salons.map(({ id, name }) => ({ id, name })),
  };
}

type GuardContext = { db: Database; accounts: AccountServices };

/**
 * The back office's door, for /owner itself: an owner or an administrator.
 * A guest signs in and comes back; anyone else gets the 404 screen.
 */
export async function requireBackOffice(request: Request, ctx: GuardContext) {
  const user = await getCurrentUser(request, ctx);
  if (!user) throw redirect(`/signin?redirect=${encodeURIComponent(pathOf(request))}`);
  if (user.role !== "owner" && user.role !== "admin") throw notFound(request);
  if (!user.emailVerified) throw redirect("/mail_not_confirm");
  return user;
}

/**
 * For every page and action under /owner/salons/{id}: the access, or the
 * sign-in redirect (guest) or the 404 screen (anyone else, another salon,
 * a missing capability).
 */
export async function requireSalonAccess(
  request: Request,
  ctx: GuardContext,
  salonId: string | undefined,
  capability: SalonCapability = "ledger.read",
): Promise<SalonAccess> {
  const user = await requireBackOffice(request, ctx);
  const access = salonId ? await salonAccessFor(ctx.db, user, salonId) : null;
  if (!access || !can(access, capability)) throw notFound(request);
  return access;
}

/** The same check for /api/owner: 401 for a guest, 404 JSON for anything not theirs. */
export async function requireSalonAccessApi(
  request: Request,
  ctx: GuardContext,
  salonId: string,
  capability: SalonCapability = "ledger.read",
): Promise<SalonAccess> {
  const user = await getCurrentUser(request, ctx);
  if (!user) throw new UnauthenticatedError();
  const access =
    user.emailVerified && (user.role === "owner" || user.role === "admin")
      ? await salonAccessFor(ctx.db, user, salonId)
      : null;
  if (!access || !can(access, capability)) {
    throw new NotFoundError("サロンが見つかりません。");
  }
  return access;
}
