import { appContext } from "../../server/context";
import { renderRobots } from "../../server/seo/sitemap";
import type { Route } from "./+types/robots.txt";

export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(appContext);
  return new Response(renderRobots(config.PUBLIC_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
