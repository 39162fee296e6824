import { appContext } from "../../server/context";
import { fakeLineInbox } from "../../server/line/dev-line.server";
import { notFound } from "../../server/routing/not-found";
import { LineInbox } from "../components/accounts/line-inbox";
import type { Route } from "./+types/dev.line";

export const meta: Route.MetaFunction = () => [
  { title: "開発用LINE | Salon Navi" },
  { name: "robots", content: "noindex" },
];

/** What the local fake Messaging API received (no LINE channel set). Not in production. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { config, line } = context.get(appContext);
  if (config.isProduction) {
    throw notFound(request);
  }
  return fakeLineInbox(line?.fake ?? null);
}

export default function DevLine({ loaderData }: Route.ComponentProps) {
  return <LineInbox {...loaderData} />;
}
