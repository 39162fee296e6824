import { Hono } from "hono";
import type { AccountServices } from "../accounts/account-services";
import { type CurrentUser, getCurrentUser } from "../accounts/current-user";
import { auditFilterSchema, ownerListQuerySchema } from "../admin/admin.schema";
import { listOwners } from "../admin/owners";
import { listModeration, moderate } from "../admin/review-moderation.server";
import { listAudit } from "../audit/audit";
import type { Database } from "../db/client";
import {
  DomainError,
  errorBody,
  NotFoundError,
  UnauthenticatedError,
} from "../errors/domain-error";
import { moderationQuerySchema, moderationSchema } from "../reviews/review-reply.schema";
import { lookupPostalCode } from "../salon-editor/postal-code.server";
import { invalidRequest } from "./api-app";

/**
 * /api/admin/*: every call passes the admin check first, here, once for the
 * whole prefix, so an endpoint added later cannot forget it. A guest gets
 * 401 and a signed-in non-admin 403, both as the JSON error of SPEC.md §7
 * (an API client cannot follow the pages' sign-in redirect or 404 screen).
 */
export function adminApi({ db, accounts }: { db: Database; accounts: AccountServices }) {
  const api = new Hono<{ Variables: { admin: CurrentUser } }>();
  api.use("*", async (c, next) => {
    c.header("Cache-Control", "private, no-store");
    const user = await getCurrentUser(c.req.raw, { db, accounts });
    if (!user) return c.json(errorBody(new UnauthenticatedError()), 401);
    if (user.role !== "admin") {
      return c.json(
        errorBody(new DomainError("forbidden", "この操作を行う権限がありません。", 403)),
        403,
      );
    }
    c.set("admin", user);
    await next();
  });

  /** The owners list of /admin/owners, as JSON. */
  api.get("/owners", async (c) => {
    const query = ownerListQuerySchema.parse({ q: c.req.query("q"), page: c.req.query("page") });
    return c.json({ data: await listOwners(db, query) });
  });

  /** The newest audit entries, filterable by salon and by admin. */
  api.get("/audit", async (c) => {
    const filter = auditFilterSchema.parse({
      salon: c.req.query("salon"),
      actor: c.req.query("actor"),
    });
    return c.json({
      data: await listAudit(db, { salonId: filter.salon, actorUserId: filter.actor, limit: 50 }),
    });
  });

  /**
   * The moderation of reviews (decision 0056): ?view=reported|hidden|all,
   * &q= (salon name, view all), &review=<id>, &page=; as /admin/reviews lists them.
   */
  api.get("/reviews", async (c) => {
    const query = moderationQuerySchema.safeParse({
      view: c.req.query("view") || undefined,
      q: c.req.query("q") || undefined,
      review: c.req.query("review") || undefined,
      page: c.req.query("page") || undefined,
    });
    if (!query.success) return c.json(errorBody(invalidRequest(query.error)), 400);
    return c.json({ data: await listModeration(db, query.data) });
  });

  /** Hide, restore or keep (問題なし) a review: { note, version } as JSON; audited. */
  for (const intent of ["hide", "restore", "keep"] as const) {
    api.post(`/reviews/:reviewId/${intent}`, async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        body = null;
      }
      const fields = body && typeof body === "object" && !Array.isArray(body) ? body : {};
      const input = moderationSchema.safeParse({
        note: "",
        ...fields,
        intent,
        reviewId: c.req.param("reviewId"),
      });
      if (!input.success) return c.json(errorBody(invalidRequest(input.error)), 400);
      const { reviewId, note, version } = input.data;
      const outcome = await moderate(db, intent, {
        reviewId,
        note,
        version,
        actor: c.get("admin"),
        now: new Date(),
      });
      return c.json({ data: outcome });
    });
  }

  /** The salon editor's 住所を検索 with JavaScript: the bundled postal-code data, as JSON. */
  api.get("/postal-codes/:code", (c) => {
    const address = lookupPostalCode(c.req.param("code").slice(0, 20));
    if (!address) {
      return c.json(
        errorBody(new NotFoundError("この郵便番号の住所は見つかりませんでした。")),
        404,
      );
    }
    return c.json({ data: address });
  });

  api.all("*", (c) => c.json(errorBody(new NotFoundError()), 404));
  return api;
}
