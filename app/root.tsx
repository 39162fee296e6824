import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirectDocument,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useRouteLoaderData,
} from "react-router";
import { backOfficeLink } from "../server/accounts/back-office";
import { getCurrentUser } from "../server/accounts/current-user";
import { accountSetupRedirect } from "../server/accounts/guards";
import { appContext } from "../server/context";
import { lastSalonCookie } from "../server/salon-access/last-salon.server";
import { isSalonStaff } from "../server/salon-access/salon-access.server";
import type { Route } from "./+types/root";
import { ErrorScreen } from "./components/error-screen";
import { LoadingOverlay } from "./components/shell/loading-overlay";
import { TagManagerScript, usePageViews } from "./components/shell/tag-manager";
import { useBuildUpdates } from "./components/shell/use-build-updates";
import { useViewportCookie } from "./components/shell/use-viewport-cookie";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { preferenceCookie, readCookie } from "./lib/cookies";
import { DEFAULT_THEME, isTheme, THEME_COOKIE, THEME_COOKIE_MAX_AGE } from "./lib/theme";
import {
  FALLBACK_VIEWPORT,
  isViewport,
  VIEWPORT_COOKIE,
  VIEWPORT_COOKIE_MAX_AGE,
} from "./lib/viewport";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The site's CSS (about 8 KB compressed), inlined into every page's head by
 * the server: the first paint waits for no stylesheet request, which on a
 * phone's connection was a round trip queued behind the script preloads
 * (issue 17, bench/README.md). Empty in the browser bundle: on hydration
 * React adopts the server's <style> by its href and never compares the text.
 */
const inlineCss: string = import.meta.env.SSR ? (await import("./app.css?inline")).default : "";

export const middleware: Route.MiddlewareFunction[] = [
  // Input the HTTP layer refused (server/http/input-screen.ts): the error screen, with its status.
  async ({ context }) => {
    const { inputError } = context.get(appContext);
    if (inputError) throw inputError;
  },
  // A preference cookie the site cannot read is replaced, so it is not sent again and again.
  async ({ request }, next) => {
    const response = await next();
    for (const stale of unreadablePreferences(request.headers.get("cookie"))) {
      response.headers.append("Set-Cookie", stale);
    }
    return response;
  },
  // The salon a back-office page opened, remembered for /owner (issue 38, point 7).
  async ({ request, context }, next) => {
    const response = await next();
    const cookie = lastSalonCookie(request, context.get(appContext).config.isProduction);
    if (cookie && response.status === 200) response.headers.append("Set-Cookie", cookie);
    return response;
  },
  // SPEC.md §4: on every request, a user without a complete account record goes to /account/edit.
  async ({ request, context }) => accountSetupRedirect(request, context.get(appContext)),
];

function unreadablePreferences(cookies: string | null) {
  const stale: string[] = [];
  const theme = readCookie(cookies, THEME_COOKIE);
  if (theme !== undefined && !isTheme(theme)) {
    stale.push(preferenceCookie(THEME_COOKIE, DEFAULT_THEME, THEME_COOKIE_MAX_AGE));
  }
  const viewport = readCookie(cookies, VIEWPORT_COOKIE);
  if (viewport !== undefined && !isViewport(viewport)) {
    stale.push(preferenceCookie(VIEWPORT_COOKIE, FALLBACK_VIEWPORT, VIEWPORT_COOKIE_MAX_AGE));
  }
  return stale;
}

/**
 * SPEC.md §2: every client-side navigation asks the server's route rules
 * first; a match becomes a full (external) redirect. Server requests are
 * checked by the Hono layer before React Router runs.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    // With the query string: a salon's old-slug rule keeps it (decision 0017).
    const { pathname, search } = new URL(request.url);
    const response = await fetch(`/api/route-rules?path=${encodeURIComponent(pathname + search)}`);
    if (response.ok) {
      const { redirect } = (await response.json()) as {
        redirect: { target: string; statusCode: number } | null;
      };
      if (redirect) throw redirectDocument(redirect.target, redirect.statusCode);
    }
    return next();
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const { nonce, config } = ctx;
  const user = await getCurrentUser(request, ctx);
  // A plain account that works at a salon also gets the back office's link (decision 0045).
  const salonStaff = user?.role === "user" && (await isSalonStaff(ctx.db, user.id));
  const cookies = request.headers.get("cookie");
  const theme = readCookie(cookies, THEME_COOKIE);
  const viewport = readCookie(cookies, VIEWPORT_COOKIE);
  return {
    nonce,
    origin: config.PUBLIC_URL,
    gtmId: config.GTM_ID ?? null,
    theme: isTheme(theme) ? theme : DEFAULT_THEME,
    viewport: isViewport(viewport) ? viewport : FALLBACK_VIEWPORT,
    user: user
      ? {
          name: user.profile?.name || user.email,
          backOffice: backOfficeLink(user.role, salonStaff),
        }
      : null,
  };
}

/**
 * The root data (current user, preferences) is loaded once with the document
 * and kept on the client: plain navigations do not fetch it again, only
 * form submissions (sign-in, sign-out, profile, theme) may change it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod !== undefined && formMethod !== "GET" ? defaultShouldRevalidate : false);

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = root?.nonce;
  return (
    <html
      lang="ja"
      data-theme={root?.theme ?? DEFAULT_THEME}
      data-viewport={root?.viewport ?? FALLBACK_VIEWPORT}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <style href="app-css" precedence="default">
          {inlineCss}
        </style>
        <Meta />
        <Links />
        <TagManagerScript gtmId={root?.gtmId ?? null} nonce={nonce} />
        <noscript>
          {/* Without JavaScript nothing would ever hide the overlay. In the head: <style> is not allowed in the body. */}
          <style>{"#loading-overlay{display:none}"}</style>
        </noscript>
      </head>
      <body className="flex min-h-screen flex-col">
        <LoadingOverlay />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2"
        >
          本文へスキップ
        </a>
        <SiteHeader />
        <main id="main" className="flex-1">
          {children}
        </main>
        <SiteFooter theme={root?.theme ?? DEFAULT_THEME} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  usePageViews();
  useViewportCookie(loaderData.viewport);
  useBuildUpdates();
  return <Outlet />;
}

export function meta({ error }: Route.MetaArgs) {
  if (!error) return [];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    { title: notFound ? "ページが見つかりません | Salon Navi" : "問題が発生しました | Salon Navi" },
    { name: "robots", content: "noindex" },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A DomainError reaches here as data({ code, message }) (server/http/errors.ts).
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : undefined;
  return <ErrorScreen status={status} message={message} />;
}
