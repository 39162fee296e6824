import { appContext } from "../../server/context";
import { listSitemapEntries, renderSitemap } from "../../server/seo/sitemap";
import type { Route } from "./+types/sitemap.xml";

export async function loader({ context }: Route.LoaderArgs) {
  const { readDb: db, config } = context.get(appContext);
  const entries = await listSitemapEntries(db, new Date());
  return new Response(renderSitemap(entries, config.PUBLIC_URL), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
