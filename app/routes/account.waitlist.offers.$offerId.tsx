import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { requireLogin } from "../../server/accounts/guards";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { declineFromOfferPage, loadOfferPage } from "../../server/waitlist/offer-page.server";
import { WaitlistOfferNotFoundError } from "../../server/waitlist/waitlist-errors";
import { WaitlistOffer } from "../components/bookings/waitlist-offer";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.waitlist.offers.$offerId";

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta({
    title: "キャンセル待ちの空きのご案内",
    description: "キャンセル待ちでご案内したお時間の確認と予約",
    path: `/account/waitlist/offers/${params.offerId}`,
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2 style): is-login; someone else's offer is the 404 screen.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const offer = await loadOfferPage(ctx.db, {
    userId: user.id,
    offerId: params.offerId,
    now: new Date(),
  }).catch((error) => {
    throw error instanceof WaitlistOfferNotFoundError ? notFound(request) : error;
  });
  return { offer };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const form = await request.formData();
  if (form.get("intent") !== "decline") {
    return data({ error: "操作が正しくありません。" }, { status: 400 });
  }
  const outcome = await declineFromOfferPage(ctx.db, {
    userId: user.id,
    offerId: params.offerId,
    now: new Date(),
  }).catch((error) => {
    throw error instanceof WaitlistOfferNotFoundError ? notFound(request) : error;
  });
  if (outcome.kind === "redirect") return redirect(outcome.to);
  return data({ error: outcome.error }, { status: outcome.status });
}

export default function WaitlistOfferRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitlistOffer offer={loaderData.offer} error={actionData?.error ?? null} />;
}
