import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { AppContext } from "../context";
import type { Database } from "../db/client";
import { salonMembers } from "../db/schema";
import { notFound } from "../routing/not-found";
import { type CurrentUser, getCurrentUser } from "./current-user";
import { pathOf } from "./request-info";

/**
 * The guards of SPEC.md §6, one function each. A route module calls, in its
 * loader and its action, exactly the guards SPEC.md §2 lists for it (the
 * route table in app/routes.ts names them beside each route). Each returns
 * the signed-in user or throws the redirect or 404 of a failed guard.
 */
type GuardContext = Pick<AppContext, "db" | "accounts">;

/** is-login: signed in, else the sign-in screen, coming back here afterwards. */
export async function requireLogin(request: Request, ctx: GuardContext): Promise<CurrentUser> {
  const user = await getCurrentUser(request, ctx);
  if (!user) throw redirect(`/signin?redirect=${encodeURIComponent(pathOf(request))}`);
  return user;
}

/** auth-full: signed in with a verified email address, else /mail_not_confirm. */
export async function requireAuthFull(request: Request, ctx: GuardContext): Promise<CurrentUser> {
  const user = await requireLogin(request, ctx);
  if (!user.emailVerified) throw redirect("/mail_not_confirm");
  return user;
}

/**
 * admin-only: role admin. A guest is sent to sign in and comes back here
 * (issue 16); anyone signed in without the role gets the 404 screen, so
 * admin pages are not revealed to them.
 */
export async function requireAdmin(request: Request, ctx: GuardContext): Promise<CurrentUser> {
  const user = await requireLogin(request, ctx);
  if (user.role !== "admin") throw notFound(request);
  // auth-full, which SPEC.md §2 lists beside admin-only; checked after the
  // role so an unverified non-admin still learns nothing about the page.
  if (!user.emailVerified) throw redirect("/mail_not_confirm");
  return user;
}

/** account-setup-validation: a completed profile, else /account/edit to complete it. */
export async function requireAccountSetup(
  request: Request,
  ctx: GuardContext,
): Promise<CurrentUser> {
  const user = await requireLogin(request, ctx);
  if (!user.profile?.completed) throw redirect(accountEditPath(pathOf(request)));
  return user;
}

/** Where a signed-in user without a complete account record may stay (SPEC.md §4). */
const setupExempt = [
  "/account/edit",
  "/finish_sign_up",
  "/mail_not_confirm",
  "/finish_resend_email",
  "/signout",
  "/dev/mailbox",
  "/account/invitation",
];

/**
 * A salon's staff (an owner, or a member of a salon) with a name: the
 * customer's record (kana, phone, gender) is what booking as a customer
 * needs, not what working in the back office needs (issue 38, point 8).
 */
async function isNamedStaff(db: Database, user: CurrentUser) {
  if (user.name.trim() === "") return false;
  if (user.role === "owner" || user.role === "admin") return true;
  const [member] = await db
    .select({ salonId: salonMembers.salonId })
    .from(salonMembers)
    .where(eq(salonMembers.userId, user.id))
    .limit(1);
  return member !== undefined;
}

/**
 * SPEC.md §4: a signed-in user whose account record is missing or incomplete
 * is sent to /account/edit, unless already there or on /finish_sign_up. Only
 * verified users: /account/edit needs auth-full, so an unverified user is
 * left to the pages that ask them to confirm their address first. A salon's
 * staff with a name are not: they fill the record in when they book as a
 * customer (the booking form asks for what it needs).
 */
export async function accountSetupRedirect(request: Request, ctx: GuardContext) {
  if (request.method !== "GET") return;
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  if (setupExempt.some((exempt) => path === exempt || path.startsWith(`${exempt}/`))) return;
  const user = await getCurrentUser(request, ctx);
  if (user?.emailVerified && !user.profile?.completed && !(await isNamedStaff(ctx.db, user)))
    throw redirect(accountEditPath(pathOf(request)));
}

/** /account/edit, coming back to `back` (a same-site path) once the profile is saved. */
export function accountEditPath(back: string) {
  return back && back !== "/"
    ? `/account/edit?redirect=${encodeURIComponent(back)}`
    : "/account/edit";
}
