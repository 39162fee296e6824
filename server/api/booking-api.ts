import type { AccountServices } from "../accounts/account-services";
import { type BookingLimits, bookingLimitsFrom } from "../bookings/booking-rate-limit";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import type { SlotEvents } from "../realtime/slot-events.server";
import { createApiApp } from "./api-app";
import { registerBookingRoutes } from "./booking-routes";
import { type OpenApiDocument, renderApiDocs } from "./docs-page";
import { registerFavoriteRoutes } from "./favorite-routes";
import { registerOwnerApi } from "./owner-api";
import { guardedByCapability } from "./owner-capability";
import { registerReviewRoutes } from "./review-routes";
import { registerSalonReviewRoutes } from "./salon-review-routes";
import { registerWaitlistEventRoutes } from "./waitlist-event-routes";
import { registerWaitlistRoutes } from "./waitlist-routes";

export type BookingApiDeps = {
  db: Database;
  config: Config;
  log: Logger;
  accounts: AccountServices;
  slotEvents: SlotEvents;
  /** Holds and bookings per account and per address; from config and the accounts' counter store when not given. */
  limits?: BookingLimits;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** Comment interval of the availability stream (25 s; tests shorten it). */
  heartbeatMs?: number;
};

const documentInfo = {
  openapi: "3.1.0",
  info: {
    title: "Salon Navi 予約 API",
    version: "1.0.0",
    description:
      "空き状況、仮押さえ、予約、予約履歴、キャンセル、お気に入り、キャンセル待ち。JSON、認証は Bearer トークンまたはセッション Cookie。エラーは常に { error: { code, message } }（message は日本語）。",
  },
  servers: [{ url: "/" }],
};

export type BookingApiApp = ReturnType<typeof createApiApp>;
export type ResolvedBookingApiDeps = BookingApiDeps & {
  limits: BookingLimits;
  now: () => Date;
};

/**
 * The booking API under /api (issue 15, point 9), with its OpenAPI 3.1
 * document and reference page built from the same Zod schemas.
 */
export function createBookingApi(options: BookingApiDeps) {
  const deps: ResolvedBookingApiDeps = {
    ...options,
    limits: options.limits ?? bookingLimitsFrom(options.config, options.accounts.limits.store),
    now: options.now ?? (() => new Date()),
  };
  const app = createApiApp(deps.log);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "Better Auth のセッショントークン（/api/auth のサインインで得られます）",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "cookie", {
    type: "apiKey",
    in: "cookie",
    name: "better-auth.session_token",
    description: "ブラウザーのセッション Cookie",
  });

  registerBookingRoutes(app, deps);
  registerFavoriteRoutes(app, deps);
  registerReviewRoutes(app, deps);
  registerSalonReviewRoutes(app, deps);
  registerWaitlistRoutes(app, deps);
  registerWaitlistEventRoutes(app, deps);
  // Each owner operation's declared capability guards it before its validators (decision 0045).
  registerOwnerApi(guardedByCapability(app, deps), deps);

  const document = () => app.getOpenAPI31Document(documentInfo) as unknown as OpenApiDocument;
  app.get("/openapi.json", (c) => c.json(document()));
  app.get("/docs", (c) => c.html(renderApiDocs(document())));
  return app;
}
