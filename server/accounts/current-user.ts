import type { Database } from "../db/client";
import type { AccountServices } from "./account-services";
import { type AccountProfile, findProfile } from "./profile";

export type Role = "user" | "owner" | "admin";

export type CurrentUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  role: Role;
  /** The account record (SPEC.md §3); null until the profile form was first saved. */
  profile: AccountProfile | null;
};

/** The session's account without its profile: what /api needs to act for someone. */
export type SignedInAccount = Omit<CurrentUser, "profile">;

const accountCache = new WeakMap<Request, Promise<SignedInAccount | null>>();
const cache = new WeakMap<Request, Promise<CurrentUser | null>>();

/**
 * The signed-in user of a request (session cookie or bearer token), or null.
 * The one place loaders, actions, guards and /api get the session from;
 * looked up once per request. A disabled (banned) user has every session
 * revoked here, so they are signed out on their next request.
 */
export function getCurrentUser(
  request: Request,
  deps: { db: Database; accounts: AccountServices },
): Promise<CurrentUser | null> {
  let pending = cache.get(request);
  if (!pending) {
    pending = getSignedInAccount(request, deps).then(async (account) =>
      account ? { ...account, profile: await findProfile(deps.db, account.id) } : null,
    );
    cache.set(request, pending);
  }
  return pending;
}

/**
 * getCurrentUser without the profile (one statement less): /api reads the
 * profile only where it uses it, and most of its requests do not
 * (bench/README.md, "bookings over HTTP"). Looked up once per request too,
 * and getCurrentUser shares the lookup.
 */
export function getSignedInAccount(
  request: Request,
  { accounts }: { accounts: AccountServices },
): Promise<SignedInAccount | null> {
  let pending = accountCache.get(request);
  if (!pending) {
    pending = loadSignedInAccount(request, accounts);
    accountCache.set(request, pending);
  }
  return pending;
}

async function loadSignedInAccount(
  request: Request,
  accounts: AccountServices,
): Promise<SignedInAccount | null> {
  // Most page views are anonymous: without credentials there is no session to look up.
  if (!request.headers.has("cookie") && !request.headers.has("authorization")) return null;
  const session = await accounts.auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  const banExpired = user.banExpires ? user.banExpires.getTime() <= Date.now() : false;
  if (user.banned && !banExpired) {
    await accounts.endSessions(user.id);
    return null;
  }
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    name: user.name,
    role: (user.role ?? "user") as Role,
  };
}
