import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { getCurrentUser } from "../server/accounts/current-user";
import { accountSetupRedirect } from "../server/accounts/guards";
import { appContext } from "../server/context";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ErrorScreen } from "./components/error-screen";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// SPEC.md §4: on every request, a user without a complete account record goes to /account/edit.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => accountSetupRedirect(request, context.get(appContext)),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { nonce, config } = context.get(appContext);
  const user = await getCurrentUser(request, context.get(appContext));
  return {
    nonce,
    origin: config.PUBLIC_URL,
    user: user ? { name: user.profile?.name || user.email } : null,
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useRouteLoaderData<typeof loader>("root")?.nonce;
  return (
    <html lang="ja">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
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
        <SiteFooter />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
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
  return <ErrorScreen status={status} />;
}
