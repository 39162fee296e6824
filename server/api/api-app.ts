import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AccountServices } from "../accounts/account-services";
import { getSignedInAccount, type SignedInAccount } from "../accounts/current-user";
import type { Database } from "../db/client";
import { DomainError, UnauthenticatedError } from "../errors/domain-error";
import { domainErrorResponse, noteUnavailable, toDomainError } from "../http/errors";
import { describeError, type Logger } from "../logger";

export type ApiEnv = { Variables: { requestId: string } };

/** The body of every /api error (issue 15, point 9; built by errorBody in server/errors/). */
export const errorSchema = z
  .object({
    error: z
      .object({
        code: z.string().openapi({ example: "invalid_request" }),
        message: z.string().openapi({ example: "日付は YYYY-MM-DD の形式で指定してください。" }),
        issues: z
          .array(z.object({ path: z.string(), message: z.string() }))
          .optional()
          .openapi({ description: "invalid_request のとき、項目ごとの問題" }),
        retryAfter: z.number().int().optional().openapi({
          description: "too_many_requests / too_many_holds のとき、待つ秒数（Retry-After と同じ）",
        }),
        limit: z.number().int().optional().openapi({
          description:
            "too_many_holds のとき同時に持てる仮押さえの数、too_many_bookings のときこのサロンで持てる予約の数",
        }),
      })
      .catchall(z.unknown()),
  })
  .openapi("Error", { description: "エラー。message は利用者にそのまま見せられる日本語です。" });

/** A failed schema: the first issue as the message, every issue as `{ path, message }`. */
export function invalidRequest(error: z.ZodError): DomainError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const first = issues[0];
  const message = first
    ? `${first.path ? `${first.path}: ` : ""}${first.message}`
    : "リクエストの内容が正しくありません。";
  return new DomainError("invalid_request", message, 400, { issues });
}

/**
 * The base of the booking API: an OpenAPIHono app whose schemas validate
 * every input (failures become 400 `invalid_request` with Japanese messages)
 * and feed /api/openapi.json. DomainErrors become their status and
 * `{ error: { code, message } }` through the one helper of server/http/errors.ts;
 * anything else a logged 500 in the same shape. (`private, no-store` on
 * every /api answer comes from server/http/private-answers.ts.)
 */
export function createApiApp(log: Logger) {
  // The base path is part of the app (not of where it is mounted), so the
  // document's paths are the real ones: /api/holds, not /holds.
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return domainErrorResponse(c, invalidRequest(result.error));
    },
  }).basePath("/api");
  app.onError((error, c) => apiErrorResponse(error, c, log));
  return app;
}

export function apiErrorResponse(error: unknown, c: Context<ApiEnv>, log: Logger) {
  const domain = toDomainError(error);
  if (domain) {
    noteUnavailable(c, domain, error, log);
    return domainErrorResponse(c, domain);
  }
  // Malformed JSON bodies and the like, raised by Hono's validators.
  if (error instanceof HTTPException && error.status < 500) {
    return domainErrorResponse(
      c,
      new DomainError(
        "invalid_request",
        "リクエストの形式が正しくありません（JSON を送ってください）。",
        400,
      ),
    );
  }
  log.error("unhandled api error", {
    requestId: c.get("requestId"),
    path: c.req.path,
    ...describeError(error),
  });
  const message = "問題が発生しました。しばらくしてから再度お試しください。";
  return c.json({ error: { code: "internal_error", message } }, 500);
}

/**
 * The signed-in user (bearer token or session cookie), or a 401. Without the
 * profile: a route that uses it reads it (findProfile).
 */
export async function requireApiUser(
  c: Context,
  deps: { db: Database; accounts: AccountServices },
): Promise<SignedInAccount> {
  const user = await getSignedInAccount(c.req.raw, deps);
  if (!user) throw new UnauthenticatedError();
  return user;
}

/** For paths that need an account: a guest gets 401 before the input is even validated. */
export function signedInOnly(deps: { db: Database; accounts: AccountServices }): MiddlewareHandler {
  return async (c, next) => {
    await requireApiUser(c, deps);
    await next();
  };
}

/** Responses every operation may give, for the document. */
export const errorResponses = {
  400: {
    description: "入力が正しくありません（invalid_request）",
    content: { "application/json": { schema: errorSchema } },
  },
  500: {
    description: "サーバーの問題",
    content: { "application/json": { schema: errorSchema } },
  },
} as const;

export const authErrorResponses = {
  401: {
    description: "ログインが必要です（unauthorized）",
    content: { "application/json": { schema: errorSchema } },
  },
} as const;

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorSchema } },
});

/** Operations that need an account: a bearer token or the session cookie. */
export const signedIn: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
