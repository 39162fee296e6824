import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import type { FlowSalon } from "../../../server/bookings/pages/booking-flow.server";
import type { ChangeView } from "../../../server/bookings/pages/change-page.server";
import type { HoldView, PickView } from "../../../server/bookings/pages/confirm-page.server";
import { linkClass } from "../accounts/account-frame";
import { ChangeBanner, ChangeConfirmStep, ChangeRefused } from "./booking-change";
import { HoldStep } from "./booking-hold-step";
import { PickSteps } from "./booking-pick-steps";
import { draftFromState } from "./hold-expired-notice";
import { stepIds } from "./step-focus";
import { WaitlistLiveNotice } from "./waitlist-live-notice";

/** What the booking page's action answered: a refused time, or the contact form again. */
export type BookingActionData =
  | { error: string; draft: Record<string, string> }
  | { errors: Record<string, string | undefined>; values: Record<string, string> }
  | undefined;

/** /salons/:id/confirm: the pickers, or the held time's confirmation. */
export function BookingPage({
  salon,
  view,
  actionData,
}: {
  salon: FlowSalon;
  view: PickView | HoldView | ChangeView;
  actionData: BookingActionData;
}) {
  // Back to exactly this page (the hold is kept) after signing in.
  const location = useLocation();
  const signInHref = `/signin?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  const actionError = actionData && "error" in actionData ? actionData.error : null;
  const contactResult = actionData && "errors" in actionData ? actionData : null;
  const heldDraft =
    actionData && "draft" in actionData ? (actionData.draft as Record<string, string>) : null;
  // Back from an expired hold's notice: what was typed comes along (history
  // state), and stays while the visitor changes the day or the menus.
  const arrivedWithDraft = draftFromState(location.state);
  const [repickDraft, setRepickDraft] = useState(arrivedWithDraft);
  useEffect(() => {
    if (arrivedWithDraft) setRepickDraft(arrivedWithDraft);
  }, [arrivedWithDraft]);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={`/salons/${salon.slug}`} className={linkClass}>
          {salon.name}のページへ戻る
        </Link>
      </p>
      <h1 id={stepIds.page} className="mt-2 text-2xl font-bold">
        {"change" in view || view.kind === "change-refused"
          ? "予約変更"
          : view.kind === "hold"
            ? "ご予約内容の確認"
            : "ご予約"}
        <span className="block text-base font-normal text-neutral-700">{salon.name}</span>
      </h1>
      {/* While picking; not over a hold being confirmed, which may be the offer itself. */}
      {view.kind === "pick" ? <WaitlistLiveNotice /> : null}
      {view.kind === "change" ? (
        <ChangeConfirmStep view={view} actionError={actionError} />
      ) : view.kind === "change-refused" ? (
        <ChangeRefused view={view} />
      ) : view.kind === "pick" ? (
        <>
          {"change" in view ? <ChangeBanner change={view.change} /> : null}
          <PickSteps
            slug={salon.slug}
            view={view}
            actionError={actionError}
            draft={contactResult?.values ?? heldDraft ?? repickDraft}
            repicking={arrivedWithDraft !== null}
            changeId={"change" in view ? view.change.bookingId : null}
          />
        </>
      ) : (
        <HoldStep view={view} signInHref={signInHref} result={contactResult} />
      )}
    </div>
  );
}
