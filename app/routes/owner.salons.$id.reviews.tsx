import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  afterReply,
  reviewReplyPage,
  submitReplyForm,
} from "../../server/reviews/review-reply-page.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { OwnerPageHandle } from "../components/owner/owner-frame";
import { ReviewReplyPage } from "../components/owner/review-reply-page";
import type { Route } from "./+types/owner.salons.$id.reviews";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `口コミ | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** The frame links to the salon's public page, where the replies are shown. */
export const handle = { ownerFrame: { publicLink: true } } satisfies OwnerPageHandle;

/** The salon's answers to its reviews: owner, manager and administrator (decision 0056). */
export const capability = {
  loader: "reviews.reply",
  action: "reviews.reply",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with reviews.reply (the salon's owner, a manager or an
// administrator; a guest signs in and comes back; anyone else, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return reviewReplyPage(ctx.db, access, new URL(request.url));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitReplyForm(ctx.db, access, await request.formData(), new Date());
  if (outcome.kind === "form") return data(outcome.result, { status: outcome.status });
  return redirect(afterReply(access.salon.id, new URL(request.url), outcome));
}

export default function OwnerReviews({ loaderData, actionData }: Route.ComponentProps) {
  return <ReviewReplyPage data={loaderData} result={actionData} />;
}
