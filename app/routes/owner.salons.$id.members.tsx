import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { membersPage, submitMembersForm } from "../../server/owner/members.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { MembersPage } from "../components/owner/members-page";
import type { Route } from "./+types/owner.salons.$id.members";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `メンバー | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "members.manage",
  action: "members.manage",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with members.manage (the salon's owner or an administrator;
// a guest signs in and comes back; anyone else and another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return membersPage(ctx.db, access, new URL(request.url), new Date());
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitMembersForm(
    { db: ctx.db, accounts: ctx.accounts, publicUrl: ctx.config.PUBLIC_URL },
    access,
    await request.formData(),
    new Date(),
  );
  if (outcome.kind === "done") return redirect(outcome.location);
  return data({ errors: outcome.errors, values: outcome.values }, { status: outcome.status });
}

export default function OwnerMembers({ loaderData, actionData }: Route.ComponentProps) {
  return <MembersPage data={loaderData} result={actionData} />;
}
