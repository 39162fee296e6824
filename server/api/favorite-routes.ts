import { createRoute } from "@hono/zod-openapi";
import { addFavorite, listFavorites, removeFavorite } from "../favorites/favorites.server";
import { publishedSalonRef } from "../salons/salon-ref";
import {
  authErrorResponses,
  errorResponse,
  errorResponses,
  requireApiUser,
  signedIn,
  signedInOnly,
} from "./api-app";
import type { BookingApiApp, ResolvedBookingApiDeps } from "./api-deps";
import { envelope, favoriteParams, favoriteSalonSchema, favoriteStateSchema } from "./schemas";

const listRoute = createRoute({
  method: "get",
  path: "/favorites",
  operationId: "listFavorites",
  tags: ["お気に入り"],
  summary: "お気に入りのサロン一覧（新しく追加した順）",
  security: signedIn,
  responses: {
    200: {
      description: "お気に入りのサロン",
      content: { "application/json": { schema: envelope(favoriteSalonSchema.array()) } },
    },
    ...authErrorResponses,
    ...errorResponses,
  },
});

const putRoute = createRoute({
  method: "put",
  path: "/favorites/{salonId}",
  operationId: "addFavorite",
  tags: ["お気に入り"],
  summary: "サロンをお気に入りに追加（2回追加しても1件）",
  security: signedIn,
  request: { params: favoriteParams },
  responses: {
    200: {
      description: "追加後の状態",
      content: { "application/json": { schema: envelope(favoriteStateSchema) } },
    },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/favorites/{salonId}",
  operationId: "removeFavorite",
  tags: ["お気に入り"],
  summary: "サロンをお気に入りから外す（入っていなくても成功）",
  security: signedIn,
  request: { params: favoriteParams },
  responses: {
    200: {
      description: "外した後の状態",
      content: { "application/json": { schema: envelope(favoriteStateSchema) } },
    },
    404: errorResponse("サロンが見つかりません（salon_not_found）"),
    ...authErrorResponses,
    ...errorResponses,
  },
});

/** GET/PUT/DELETE /api/favorites[/{salonId}]: the signed-in user's favorite salons. */
export function registerFavoriteRoutes(app: BookingApiApp, deps: ResolvedBookingApiDeps) {
  for (const path of ["/favorites", "/favorites/*"]) app.use(path, signedInOnly(deps));
  app.openapi(listRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    return c.json({ data: await listFavorites(deps.db, user.id) }, 200);
  });
  app.openapi(putRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const salon = await publishedSalonRef(deps.db, c.req.valid("param").salonId);
    await addFavorite(deps.db, user.id, salon.slug);
    return c.json({ data: { salonId: salon.id, favorite: true } }, 200);
  });
  app.openapi(deleteRoute, async (c) => {
    const user = await requireApiUser(c, deps);
    const salon = await publishedSalonRef(deps.db, c.req.valid("param").salonId, {
      anyStatus: true,
    });
    await removeFavorite(deps.db, user.id, salon.slug);
    return c.json({ data: { salonId: salon.id, favorite: false } }, 200);
  });
}
