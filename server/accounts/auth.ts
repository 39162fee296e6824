import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { admin, bearer, genericOAuth, magicLink } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements, userAc } from "better-auth/plugins/admin/access";
import { eq } from "drizzle-orm";
import { normalizeEmail } from "../../common/field-rules";
import { type PasswordPolicy, passwordProblems } from "../../common/password-policy";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { authAccounts, sessions, users, verifications } from "../db/schema";
import type { Logger } from "../logger";
import type { Mailer } from "../mail/mailer";
import { renderMail } from "../mail/templates";
import { authCallbacks } from "./auth-callbacks";
import { keepLostDatabase, onAuthError } from "./auth-failures";
import { betterAuthLogger } from "./auth-logger";
import {
  DEVICE_COOKIE,
  deviceCookieAttributes,
  deviceCookieValue,
  trustedDevice,
} from "./device-cookie";
import { assertOwnerPresent, changeLinkVoided } from "./email-change";
import { externalProviders } from "./external-providers";
import { trustedProvidersFor } from "./line-link.server";
import { passwordPolicyFrom } from "./password-policy";
import { RESET_LINK_SECONDS, resetMailAllowed } from "./password-reset-mail";
import type { RateLimitStore } from "./rate-limit";
import { queueSessionSync } from "./session-sync.server";

export type AuthDeps = {
  db: Database;
  config: Config;
  mailer: Mailer;
  rateLimitStore: RateLimitStore;
  log: Logger;
};

/** The header the HTTP layer sets to the client's address (see server/http/client-ip.ts). */
export const CLIENT_IP_HEADER = "x-client-ip";

const ac = createAccessControl(defaultStatements);
/** user, owner and admin (SPEC.md §6); owners get their salon rights from the owner issue. */
const roles = { user: userAc, owner: ac.newRole({ user: [], session: [] }), admin: adminAc };

/** Paths whose body carries a new password, checked against the policy on the server. */
const passwordFields: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
  "/admin/set-user-password": "newPassword",
  "/admin/create-user": "password",
};

/**
 * Better Auth on our Drizzle tables: email and password (scrypt), email
 * verification, magic link, external OIDC providers from the environment,
 * roles and bans (admin plugin), bearer tokens for /api. Mails are Japanese
 * and go through our mailer (SMTP or outbox).
 */
export function createAuth({ db, config, mailer, rateLimitStore, log }: AuthDeps) {
  const policy = passwordPolicyFrom(config);
  const providers = externalProviders(config);
  const auth = betterAuth({
    appName: "Salon Navi",
    baseURL: config.PUBLIC_URL,
    basePath: "/api/auth",
    secret: config.BETTER_AUTH_SECRET,
    trustedOrigins: [new URL(config.PUBLIC_URL).origin],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: authAccounts,
        verification: verifications,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: policy.minLength,
      maxPasswordLength: policy.maxLength,
      // Sign-up answers the same for a new and a registered address (decision 0026):
      // no session (the verification link signs in), and Better Auth then hashes the
      // password on both paths and answers a stand-in user for a registered one.
      autoSignIn: false,
      onExistingUserSignUp: async ({ user }) => {
        // Registered but never confirmed: the owner most likely lost the first mail,
        // and a new confirmation link serves them better than "already registered".
        if (!user.emailVerified) {
          // The same landing as sign-up's own link.
          await auth.api.sendVerificationEmail({
            body: { email: user.email, callbackURL: authCallbacks.verified },
          });
          return;
        }
        await mailer.send(
          renderMail("signUpAttempt", user.email, `${config.PUBLIC_URL}/signin`, [
            { label: "パスワードを再設定する", url: `${config.PUBLIC_URL}/password-reset` },
          ]),
        );
      },
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        role: "user",
        banned: false,
        banReason: null,
        banExpires: null,
        ...additionalFields,
        id,
      }),
      // Unverified users may sign in; auth-full pages send them to /mail_not_confirm.
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      // Every path to a reset mail (the page form, /api/auth/request-password-reset)
      // ends here, inside Better Auth's call context, which holds the request's
      // headers: the browser's device cookie decides which allowance it spends.
      sendResetPassword: async ({ user, url }) => {
        const call = tryGetCurrentAuthEndpointContext();
        const headers = call?.headers ?? call?.request?.headers;
        const device = headers
          ? trustedDevice(headers, config.BETTER_AUTH_SECRET, user.email)
          : null;
        if (!(await resetMailAllowed(rateLimitStore, user.email, device))) {
          // Answered like a sent mail: the requester must not learn of the limit.
          log.info("password reset mail withheld: one an hour to an address");
          return;
        }
        // A known device's mail is not counted with the address's other mails,
        // which strangers can spend (its requests are counted on the device).
        await mailer.send(renderMail("resetPassword", user.email, url), {
          limited: device === null,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 3600,
      sendVerificationEmail: async ({ user, url, token }) => {
        // A token carrying `updateTo` confirms an email change, sent to the new address.
        const kind = isEmailChangeToken(token) ? "changeEmail" : "verifySignUp";
        await mailer.send(renderMail(kind, user.email, url));
      },
    },
    user: { changeEmail: { enabled: true } },
    account: {
      accountLinking: {
        // Linking LINE from マイページ (line-link.server.ts): the visitor's LINE address,
        // when LINE gives one, is seldom the one they signed up with.
        allowDifferentEmails: true,
        trustedProviders: (request) => trustedProvidersFor(db, request),
      },
    },
    databaseHooks: {
      session: {
        create: {
          // Sessions are deleted on sign-out, so the admin's "last sign-in" is kept on the user.
          after: async (session) => {
            await db
              .update(users)
              .set({ lastSignInAt: session.createdAt })
              .where(eq(users.id, session.userId));
            await queueSessionSync(db, config, "signed_in", session);
          },
        },
        // Sign-out, a revoked session, a ban: Better Auth deletes the row through here.
        delete: {
          after: async (session) => {
            await queueSessionSync(db, config, "signed_out", session);
          },
        },
      },
      user: {
        update: {
          // The address changes when the link sent to the new one is opened
          // (/verify-email, after its token is checked); the token names the
          // old address. Its owner is told, in case the change was not theirs.
          after: async (user, ctx) => {
            if (ctx?.path !== "/verify-email") return;
            const change = emailChangeOf(String(ctx.query?.token ?? ""));
            if (change && user.email === change.updateTo) {
              await mailer.send(
                renderMail("emailChanged", change.email, `${config.PUBLIC_URL}/contact`),
              );
            }
          },
        },
      },
    },
    session: {
      // No cookie cache: a ban or "sign out everywhere" takes effect on the next request.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      window: config.RATE_LIMIT_WINDOW,
      max: config.RATE_LIMIT_PER_IP * 10,
      customStorage: rateLimitStore,
      // Better Auth counts per IP only (and would apply its own stricter
      // defaults to these paths); the per-account limits shared with the
      // forms are in front of the handler (server/http/auth-limits.ts).
      customRules: {
        "/sign-in/*": { window: config.RATE_LIMIT_WINDOW, max: config.RATE_LIMIT_PER_IP },
        "/sign-up/*": { window: config.RATE_LIMIT_WINDOW, max: config.RATE_LIMIT_PER_IP },
        "/request-password-reset": {
          window: config.RATE_LIMIT_WINDOW,
          max: config.RATE_LIMIT_PER_IP,
        },
        "/send-verification-email": {
          window: config.RATE_LIMIT_WINDOW,
          max: config.RATE_LIMIT_PER_IP,
        },
        "/change-email": { window: config.RATE_LIMIT_WINDOW, max: config.RATE_LIMIT_PER_IP },
      },
    },
    advanced: {
      useSecureCookies: config.isProduction,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.isProduction },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // A session with its user in one statement, not two: every signed-in
      // request looks one up (relations in server/db/schema/accounts.ts).
      database: { joins: true },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const field = passwordFields[ctx.path];
        const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : null;
        if (typeof password === "string") assertPasswordPolicy(password, policy);
        if (ctx.path === "/change-email") {
          // The owner must be there: the password, or a recent sign-in (email-change.ts).
          const signedIn = await getSessionFromCtx(ctx);
          const body = ctx.body as Record<string, unknown> | undefined;
          if (signedIn) await assertOwnerPresent(ctx.context, signedIn, body?.password);
        }
        if (ctx.path === "/verify-email") {
          const change = emailChangeOf(String(ctx.query?.token ?? ""));
          if (change && (await changeLinkVoided(ctx.context, change.email, change.issuedAt))) {
            const callbackURL = String(ctx.query?.callbackURL ?? "");
            if (callbackURL) throw ctx.redirect(withError(callbackURL, "INVALID_TOKEN"));
            throw new APIError("UNAUTHORIZED", { code: "INVALID_TOKEN", message: "Invalid token" });
          }
        }
        // Addresses typed full-width reach Better Auth half-width (normalizeEmail).
        const normalized = withNormalizedEmails(ctx.body);
        if (normalized) return { context: { body: normalized } };
      }),
      // Any successful sign-in (password, mail link, verification, provider)
      // makes this browser a known device of the account (device-cookie.ts).
      after: createAuthMiddleware(async (ctx) => {
        // An endpoint's APIError wrapping a lost database (the session lookup's): a 503, not 500.
        keepLostDatabase(ctx.context.returned);
        // A change asked for is told to the old address at once, with what to do if it
        // was not its owner: a new password voids the link (email-change.ts).
        if (ctx.path === "/change-email" && !isAPIError(ctx.context.returned)) {
          const signedIn = await getSessionFromCtx(ctx);
          if (signedIn) {
            await mailer.send(
              renderMail(
                "emailChangeRequested",
                signedIn.user.email,
                `${config.PUBLIC_URL}/password-reset`,
                [{ label: "お問い合わせ", url: `${config.PUBLIC_URL}/contact` }],
              ),
            );
          }
        }
        const created = ctx.context.newSession;
        if (!created) return;
        ctx.setCookie(
          DEVICE_COOKIE,
          deviceCookieValue(config.BETTER_AUTH_SECRET, created.user.email),
          deviceCookieAttributes(config.isProduction),
        );
      }),
    },
    plugins: [
      admin({ defaultRole: "user", adminRoles: ["admin"], ac, roles }),
      bearer(),
      magicLink({
        expiresIn: 300,
        sendMagicLink: async ({ email, url }) => {
          await mailer.send(renderMail("magicLink", email, url));
        },
      }),
      ...(providers.length > 0 ? [genericOAuth({ config: providers })] : []),
    ],
    telemetry: { enabled: false },
    logger: betterAuthLogger(log),
    // A lost database in a Better Auth endpoint becomes the app's 503, not its bare 500.
    onAPIError: { onError: onAuthError },
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

function assertPasswordPolicy(password: string, policy: PasswordPolicy) {
  const [problem] = passwordProblems(password, policy);
  if (problem) {
    throw new APIError("BAD_REQUEST", {
      code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS",
      message: problem,
    });
  }
}

/**
 * The old and new address of an email-change token, and when it was issued
 * (seconds). Read without checking the signature: Better Auth checks it, and
 * this only ever adds a refusal or a mail after it has.
 */
function emailChangeOf(
  token: string,
): { email: string; updateTo: string; issuedAt: number } | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    return typeof payload.updateTo === "string" && typeof payload.email === "string"
      ? { email: payload.email, updateTo: payload.updateTo, issuedAt: Number(payload.iat) || 0 }
      : null;
  } catch {
    return null;
  }
}

function isEmailChangeToken(token: string) {
  return emailChangeOf(token) !== null;
}

function withError(url: string, code: string) {
  return `${url}${url.includes("?") ? "&" : "?"}error=${code}`;
}

/** The body with its address fields normalised, or null when nothing changes. */
function withNormalizedEmails(body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  let changed = false;
  const out = { ...record };
  for (const field of ["email", "newEmail"]) {
    const value = record[field];
    if (typeof value !== "string" || normalizeEmail(value) === value) continue;
    out[field] = normalizeEmail(value);
    changed = true;
  }
  return changed ? out : null;
}
