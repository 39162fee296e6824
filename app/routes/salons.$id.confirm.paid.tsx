import { useEffect } from "react";
import { Link, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { requireLogin } from "../../server/accounts/guards";
import { settleReturn } from "../../server/bookings/booking-payments.server";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { linkClass } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.confirm.paid";

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta({
    title: "お支払いの確認",
    description: "ご予約のお支払いの確認",
    path: `/salons/${params.id}/confirm/paid`,
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * Where the payment page sends the browser back (decision 0078). Arriving
 * here proves nothing: the session is read from the provider by the
 * server, and only its answer confirms (once, whether the webhook came
 * first or not). Guard: is-login; only the visitor's own booking's session.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  if (!ctx.payments) throw notFound(request);
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const outcome = await settleReturn(ctx.db, ctx.payments, {
    sessionId,
    userId: user.id,
    now: new Date(),
    log: ctx.log,
  });
  if (!outcome || outcome.kind === "unknown") throw notFound(request);
  if ((outcome.kind === "confirmed" || outcome.kind === "done") && outcome.bookingId) {
    throw redirect(`/salons/${params.id}/confirm/thanks?booking=${outcome.bookingId}`);
  }
  return { kind: outcome.kind, slug: params.id };
}

export default function ConfirmPaid({ loaderData }: Route.ComponentProps) {
  const { kind, slug } = loaderData;
  useEffect(() => document.getElementById("paid-heading")?.focus(), []);
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-8">
      <h1 id="paid-heading" tabIndex={-1} className="text-2xl font-bold">
        {kind === "refunded" ? "ご予約を確定できませんでした" : "お支払いが完了していません"}
      </h1>
      <div role="status" className="mt-4 rounded-lg border-2 border-amber-700 bg-amber-50 p-4">
        {kind === "refunded" ? (
          <p>
            お支払いの完了前にお時間の確保期限が切れ、このお時間はご予約いただけませんでした。お支払いいただいた金額は全額返金の手続きをしました（カード会社により、返金の反映まで数日かかることがあります）。
          </p>
        ) : (
          <p>
            お支払いを確認できなかったため、ご予約はまだ確定していません。お取り置き中であれば、予約画面に戻ってもう一度お手続きください。
          </p>
        )}
      </div>
      <p className="mt-6">
        <Link to={`/salons/${slug}/confirm`} className={linkClass}>
          日時を選んで予約する
        </Link>
      </p>
    </main>
  );
}
