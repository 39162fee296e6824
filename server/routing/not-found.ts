import { data } from "react-router";

/** The 404 for this request's path; the root ErrorBoundary draws the screen. */
export function notFound(request: Request) {
  return data(`Page Not Found: ${new URL(request.url).pathname}`, { status: 404 });
}
