import { useEffect } from "react";
import { privatePageHeaders } from "../../common/page-cache";
import { requireOwnBooking, thanksView } from "../../server/bookings/pages/thanks-page.server";
import { appContext } from "../../server/context";
import { BookingThanks } from "../components/bookings/booking-thanks";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.confirm.thanks";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) => [
  ...pageMeta({
    title: loaderData?.view.pending ? "仮予約を受け付けました" : "ご予約が確定しました",
    description: loaderData?.view.pending ? "仮予約（サロンの承認待ち）" : "ご予約の確定",
    path: `/salons/${params.id}/confirm/thanks`,
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2): none; the page shows only the signed-in visitor's own booking.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const booking = await requireOwnBooking(request, ctx, params.id);
  return {
    view: await thanksView(ctx.db, booking),
    slug: params.id,
    testPayments: ctx.payments?.name === "fake",
  };
}

export default function ConfirmThanks({ loaderData }: Route.ComponentProps) {
  const { view, slug, testPayments } = loaderData;
  // The booking is made: the heading takes focus, as after every step of the flow.
  useEffect(() => document.getElementById("thanks-heading")?.focus(), []);
  return (
    <BookingThanks
      number={view.number}
      summary={view.summary}
      email={view.email}
      sentBy={view.sentBy}
      pending={view.pending}
      approvalDeadlineLabel={view.approvalDeadlineLabel}
      paymentPolicy={view.paymentPolicy}
      payments={view.payments}
      testPayments={testPayments}
      studentDeclared={view.studentDeclared}
      icsHref={`/salons/${slug}/confirm/thanks.ics?booking=${view.id}`}
    />
  );
}
