import { requireSalonAccessApi } from "../salon-access/salon-access.server";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { registerOwnerApprovalRoutes } from "./owner-approval-routes";
import { registerOwnerBookingRoutes } from "./owner-booking-routes";
import { registerOwnerCustomerRoutes } from "./owner-customer-routes";
import { registerOwnerEntryRoutes } from "./owner-entry-routes";
import { registerOwnerLedgerRoutes } from "./owner-ledger-routes";
import { registerOwnerMemberRoutes } from "./owner-member-routes";
import { registerOwnerReportRoutes } from "./owner-report-routes";
import { registerOwnerReviewRoutes } from "./owner-review-routes";
import { registerOwnerScheduleRoutes } from "./owner-schedule-routes";
import { registerOwnerTodayRoutes } from "./owner-today-routes";
import { registerOwnerWaitlistRoutes } from "./owner-waitlist-routes";

/**
 * /api/owner/*: what the back office's pages do, as JSON for a salon's own
 * tools (issue 28, point 1), documented in /api/openapi.json with the rest.
 * Every path under /api/owner/salons/{id} passes the salon access check
 * here first, so an operation added later cannot forget it; each handler
 * checks again with the capability it needs (requireSalonAccessApi).
 * The operations live beside their page's domain: owner-*-routes.ts.
 */
export function registerOwnerApi(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  app.use("/owner/salons/:id/*", async (c, next) => {
    await requireSalonAccessApi(c.req.raw, deps, c.req.param("id") ?? "");
    await next();
  });
  app.use("/owner/salons/:id", async (c, next) => {
    await requireSalonAccessApi(c.req.raw, deps, c.req.param("id") ?? "");
    await next();
  });
  registerOwnerLedgerRoutes(app, deps);
  registerOwnerBookingRoutes(app, deps);
  registerOwnerApprovalRoutes(app, deps);
  registerOwnerTodayRoutes(app, deps);
  registerOwnerMemberRoutes(app, deps);
  registerOwnerReportRoutes(app, deps);
  registerOwnerReviewRoutes(app, deps);
  // Before the customers' routes: /customers/lookup is not a customer id.
  registerOwnerEntryRoutes(app, deps);
  registerOwnerCustomerRoutes(app, deps);
  registerOwnerScheduleRoutes(app, deps);
  registerOwnerWaitlistRoutes(app, deps);
}

/** The document's security and tag for every owner operation. */
export const ownerTags = ["サロン管理"];
