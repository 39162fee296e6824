import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AccountServices } from "../accounts/account-services";
import { type CurrentUser, getCurrentUser } from "../accounts/current-user";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { describeError, type Logger } from "../logger";

export type ApiEnv = { Variables: { requestId: string } };

/** The body of every /api error (issue 15, point 9). */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "invalid_request" }),
      message: z.string().openapi({ example: "日付は YYYY-MM-DD の形式で指定してください。" }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi("Error", { description: "エラー。message は利用者にそのまま見せられる日本語です。" });

export type ApiErrorBody = z.infer<typeof errorSchema>;

export function errorBody(
  code: string,
  message: string,
  details?: Record<string, unknown>,
): ApiErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

/** Zod issues as `{ path: "from", message }`, for clients that mark fields. */
export function invalidRequest(error: z.ZodError): ApiErrorBody {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const first = issues[0];
  const message = first
    ? `${first.path ? `${first.path}: ` : ""}${first.message}`
    : "リクエストの内容が正しくありません。";
  return errorBody("invalid_request", message, { issues });
}

export class UnauthorizedError extends DomainError {
  constructor() {
    super("unauthorized", "ログインしてください。", 401);
  }
}

/**
 * The base of the booking API: an OpenAPIHono app whose schemas validate
 * every input (failures become 400 `invalid_request` with Japanese messages)
 * and feed /api/openapi.json. Answers are personal or live, so none is
 * stored by a browser or a proxy. DomainErrors become their status and
 * `{ error: { code, message } }`; anything else a logged 500 in the same shape.
 */
export function createApiApp(log: Logger) {
  // The base path is part of the app (not of where it is mounted), so the
  // document's paths are the real ones: /api/holds, not /holds.
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json(invalidRequest(result.error), 400);
    },
  }).basePath("/api");
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "private, no-store");
  });
  app.onError((error, c) => apiErrorResponse(error, c, log));
  return app;
}

export function apiErrorResponse(error: unknown, c: Context<ApiEnv>, log: Logger) {
  if (error instanceof DomainError) {
    const retryAfter = error.details?.retryAfter;
    if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
    return c.json(
      errorBody(error.code, error.message, error.details),
      error.status as 400 | 401 | 403 | 404 | 409 | 410 | 422 | 429,
    );
  }
  // Malformed JSON bodies and the like, raised by Hono's validators.
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(
      errorBody("invalid_request", "リクエストの形式が正しくありません（JSON を送ってください）。"),
      400,
    );
  }
  log.error("unhandled api error", {
    requestId: c.get("requestId"),
    path: c.req.path,
    ...describeError(error),
  });
  return c.json(
    errorBody("internal_error", "問題が発生しました。しばらくしてから再度お試しください。"),
    500,
  );
}

/** The signed-in user (bearer token or session cookie), or a 401. */
export async function requireApiUser(
  c: Context,
  deps: { db: Database; accounts: AccountServices },
): Promise<CurrentUser> {
  const user = await getCurrentUser(c.req.raw, deps);
  if (!user) throw new UnauthorizedError();
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
