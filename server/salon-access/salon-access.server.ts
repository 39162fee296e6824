import { and, eq, sql } from "drizzle-orm";
import { redirect } from "react-router";
import { isUuid } from "../../common/uuid";
import type { AccountServices } from "../accounts/account-services";
import { type CurrentUser, getCurrentUser } from "../accounts/current-user";
import { pathOf } from "../accounts/request-info";
import type { Database } from "../db/client";
import {
  type SalonMemberRole,
  type SalonStatus,
  salonMembers,
  salonOwners,
  salons,
  users,
} from "../db/schema";
import { NotFoundError, UnauthenticatedError } from "../errors/domain-error";
import { notFound } from "../routing/not-found";
import { rememberOpenedSalon } from "./last-salon.server";

/**
 * Who may open a salon's back office (issue 28, point 1; decision 0037;
 * staff roles: issue 29, point 1, decision 0045). One check, called by
 * every owner page, action and /api/owner call: an administrator for any
 * salon, an owner for the salons linked to them (salon_owners), and the
 * salon's staff (salon_members: manager, reception, stylist) for theirs,
 * with what their role may do. Membership is read on every request, so a
 * removed person or a changed role takes effect on their next request.
 * Anyone else, and any other salon's id, gets the same 404 as a salon that
 * does not exist, so ids reveal nothing. A suspended (banned) account has no
 * session at all (current-user.ts), so it is a guest here.
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
  /** 会計 at the counter and its 領収書 (decision 0079): what the visit was paid. */
  "checkout.act",
  /**
   * 取消 of a saved 会計 with a reason, so that it can be taken again
   * (decision 0085): owner, manager, admin — not reception.
   */
  "checkout.void",
  /**
   * 日計 (decision 0082): the day's totals by method, the cash counted
   * against expected, closing and reopening the day (owner and manager only).
   */
  "dayclose.act",
  /** Refund a payment and waive a fee (decision 0080): money leaving the salon (owner, manager). */
  "payments.refund",
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
  /**
   * The salon's webhooks (decision 0086): endpoints, their secrets, the delivery log and
   * replays; what leaves the salon for other systems (owner, manager).
   */
  "webhooks.manage",
  /** The editor's tabs: 基本情報, stylists, menus, coupons, photos. */
  "salon.edit",
  /** Every stylist's weekly schedule, exceptions and the salon's closures. */
  "schedules.manage",
  /** A stylist's own schedule: read it and ask for a change. */
  "schedules.request",
  /** Answer the customers' reviews (「サロンからの返信」) (issue 30, point 2). */
  "reviews.reply",
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
  reception: ["ledger.read", "bookings.act", "bookings.enter", "checkout.act", "customers.manage"],
  stylist: ["ledger.read", "schedules.request"],
};

/**
 * What an owner route module declares and its guard uses (`export const
 * capability`): the capability of the page (loader) and of its form posts
 * (action). The role matrix test reads it from every /owner/salons route.
 */
export type OwnerRouteCapability = { loader: SalonCapability; action?: SalonCapability };

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
  /** The stylist this account is (role stylist: their own column); null for every other role. */
  staffId: string | null;
};

const salonColumns = {
  id: salons.id,
  slug: salons.slug,
  name: salons.name,
  timeZone: salons.timeZone,
  status: salons.status,
};

/**
 * The user's access to the salon, or null (no such salon, or not theirs).
 * An owner's link wins over a membership of the same salon; a person may
 * own one salon and work at another.
 */
export async function salonAccessFor(
  db: Database,
  user: CurrentUser,
  salonId: string,
): Promise<SalonAccess | null> {
  if (!isUuid(salonId)) return null;
  if (user.role === "admin") {
    const [salon] = await db.select(salonColumns).from(salons).where(eq(salons.id, salonId));
    return salon ? { user, salon, role: "admin", staffId: null } : null;
  }
  const [row] = await db
    .select({
      salon: salonColumns,
      owns: sql<boolean>`${salonOwners.userId} is not null`,
      memberRole: salonMembers.role,
      staffId: salonMembers.staffId,
    })
    .from(salons)
    .leftJoin(salonOwners, and(eq(salonOwners.salonId, salons.id), eq(salonOwners.userId, user.id)))
    .leftJoin(
      salonMembers,
      and(eq(salonMembers.salonId, salons.id), eq(salonMembers.userId, user.id)),
    )
    .where(eq(salons.id, salonId));
  if (!row) return null;
  if (row.owns && user.role === "owner") {
    return { user, salon: row.salon, role: "owner", staffId: null };
  }
  if (!row.memberRole) return null;
  return {
    user,
    salon: row.salon,
    role: row.memberRole,
    staffId: row.memberRole === "stylist" ? row.staffId : null,
  };
}

/** Whether this access allows the capability. */
export function can(access: SalonAccess, capability: SalonCapability): boolean {
  return capabilitiesOf[access.role].includes(capability);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The salons a person can open from the back office, by name: the ones
 * they own and the ones they work at. An administrator picks a salon from
 * /admin/salons instead (empty here).
 */
export async function reachableSalons(db: Database, user: CurrentUser): Promise<OwnerSalon[]> {
  if (user.role === "admin") return [];
  const owned =
    user.role === "owner"
      ? db
          .select(salonColumns)
          .from(salonOwners)
          .innerJoin(salons, eq(salons.id, salonOwners.salonId))
          .where(eq(salonOwners.userId, user.id))
      : Promise.resolve([]);
  const member = db
    .select(salonColumns)
    .from(salonMembers)
    .innerJoin(salons, eq(salons.id, salonMembers.salonId))
    .where(eq(salonMembers.userId, user.id));
  const byId = new Map<string, OwnerSalon>();
  for (const salon of [...(await owned), ...(await member)]) byId.set(salon.id, salon);
  return [...byId.values()].sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id));
}

export type OwnerFrameData = {
  salon: { id: string; name: string; slug: string; status: SalonStatus };
  salons: { id: string; name: string }[];
  /** What the role may open here (the frame's menu). */
  capabilities: SalonCapability[];
};

/**
 * What the frame of every /owner/salons/{id} page shows, read once by the
 * layout route (app/routes/owner.salons.$id._layout.tsx): this salon, every
 * salon the person can reach (the switcher), and what their role may open
 * here (the menu). The pages inside it read none of this again.
 */
export async function ownerFrame(db: Database, access: SalonAccess): Promise<OwnerFrameData> {
  const salons = await reachableSalons(db, access.user);
  const { id, name, slug, status } = access.salon;
  return {
    salon: { id, name, slug, status },
    salons: salons.map(({ id, name }) => ({ id, name })),
    capabilities: [...capabilitiesOf[access.role]],
  };
}

/** What a page inside the frame says of its salon (its links, its title): the guard read it. */
export function ownerPageSalon(access: SalonAccess): { id: string; name: string } {
  return { id: access.salon.id, name: access.salon.name };
}

type GuardContext = { db: Database; accounts: AccountServices };

/** Whether the account works at any salon (a salon_members row): the back office's door and link. */
export async function isSalonStaff(db: Database, userId: string) {
  const [row] = await db
    .select({ salonId: salonMembers.salonId })
    .from(salonMembers)
    .where(eq(salonMembers.userId, userId))
    .limit(1);
  return row !== undefined;
}

/**
 * Where a sign-in without a destination lands (issue 38, point 7): the back
 * office for a salon's owner or staff, who sign in to work; null for anyone
 * else (a member lands where they were, as before). Looked up by the address
 * just signed in with; an unknown address is null.
 */
export async function signInLanding(db: Database, email: string): Promise<string | null> {
  const [user] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  if (!user) return null;
  if (user.role === "owner" || (user.role === "user" && (await isSalonStaff(db, user.id)))) {
    return "/owner";
  }
  return null;
}

/**
 * The back office's door, for /owner itself: an owner, an administrator, or
 * anyone with a membership of at least one salon. A guest signs in and comes
 * back; anyone else gets the 404 screen.
 */
export async function requireBackOffice(request: Request, ctx: GuardContext) {
  const user = await getCurrentUser(request, ctx);
  if (!user) throw redirect(`/signin?redirect=${encodeURIComponent(pathOf(request))}`);
  if (user.role !== "owner" && user.role !== "admin" && !(await isSalonStaff(ctx.db, user.id))) {
    throw notFound(request);
  }
  if (!user.emailVerified) throw redirect("/mail_not_confirm");
  return user;
}

/**
 * One request's reads of the access, by person and salon: the layout route
 * of /owner/salons/{id} and the page inside it guard the same request side
 * by side, and ask the database once (as getCurrentUser reads the session once).
 */
const accessReads = new WeakMap<Request, Map<string, Promise<SalonAccess | null>>>();

function accessOnce(request: Request, db: Database, user: CurrentUser, salonId: string) {
  let reads = accessReads.get(request);
  if (!reads) {
    reads = new Map();
    accessReads.set(request, reads);
  }
  const key = `${user.id} ${salonId}`;
  let read = reads.get(key);
  if (!read) {
    read = salonAccessFor(db, user, salonId);
    reads.set(key, read);
  }
  return read;
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
  const access = salonId ? await accessOnce(request, ctx.db, user, salonId) : null;
  if (!access || !can(access, capability)) throw notFound(request);
  rememberOpenedSalon(request, access.salon.id);
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
  const access = user.emailVerified ? await salonAccessFor(ctx.db, user, salonId) : null;
  if (!access || !can(access, capability)) {
    throw new NotFoundError("サロンが見つかりません。");
  }
  return access;
}
