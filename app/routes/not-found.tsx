import { notFound } from "../../server/routing/not-found";
import type { Route } from "./+types/not-found";

/**
 * Every path no other route takes. React Router would answer 404 by itself,
 * but with no matching route the root's clientMiddleware would not run, and
 * a client-side link to a retired path would skip the route rules (SPEC.md
 * §2). Matching here makes it run; the root ErrorBoundary draws the screen.
 */
export async function loader({ request }: Route.LoaderArgs) {
  throw notFound(request);
}

export default function NotFound() {
  return null;
}
