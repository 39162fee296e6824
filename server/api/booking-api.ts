import { bookingLimitsFrom } from "../bookings/booking-rate-limit";
import { createApiApp } from "./api-app";
import type { BookingApiDeps, ResolvedBookingApiDeps } from "./api-deps";
import { registerBookingRoutes } from "./booking-routes";
import { type OpenApiDocument, renderApiDocs } from "./docs-page";
import { registerFavoriteRoutes } from "./favorite-routes";
import { registerOwnerApi } from "./owner-api";
import { guardedByCapability } from "./owner-capability";
import { registerReviewRoutes } from "./review-routes";
import { registerSalonReviewRoutes } from "./salon-review-routes";
import { registerWaitlistEventRoutes } from "./waitlist-event-routes";
import { registerWaitlistRoutes } from "./waitlist-routes";
import { registerWebhookDocs } from "./webhook-docs";

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
  // What salons' webhooks send: the document's `webhooks` section (decision 0086).
  registerWebhookDocs(app);

  const document = () => app.getOpenAPI31Document(documentInfo) as unknown as OpenApiDocument;
  app.get("/openapi.json", (c) => c.json(document()));
  app.get("/docs", (c) => c.html(renderApiDocs(document())));
  return app;
}
