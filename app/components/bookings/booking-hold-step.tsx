import { useState } from "react";
import { Link } from "react-router";
import type { HoldView } from "../../../server/bookings/pages/confirm-page.server";
import { linkClass } from "../accounts/account-frame";
import { BookingSummary, HoldCountdown } from "./booking-summary";
import { ContactForm } from "./contact-form";
import { HoldExpiredNotice } from "./hold-expired-notice";
import { stepIds, useStepFocus } from "./step-focus";

/**
 * Step 5: what is held and for how long, then the contact form (a member)
 * or the way to sign in and come back (a guest).
 */
export function HoldStep({
  view,
  signInHref,
  result,
}: {
  view: HoldView;
  signInHref: string;
  result: { errors: Record<string, string | undefined>; values: Record<string, string> } | null;
}) {
  useStepFocus(result ? stepIds.contactErrors : stepIds.confirm);
  const [expired, setExpired] = useState(false);
  return (
    <section aria-labelledby={stepIds.confirm} className="mt-6 flex flex-col gap-6">
      <h2 id={stepIds.confirm} tabIndex={-1} className="text-xl font-bold">
        5. 内容を確認して予約を確定する
      </h2>
      <HoldCountdown expiresAt={view.expiresAt} now={view.now} onExpire={() => setExpired(true)} />
      {expired ? (
        <HoldExpiredNotice repickHref={view.repickHref} formId={stepIds.contactForm} />
      ) : null}
      <BookingSummary summary={view.summary} />
      <p className="text-sm">
        <Link to={view.repickHref} className={linkClass}>
          日時やメニューを選び直す
        </Link>
      </p>
      {view.contact ? (
        <>
          {view.verifyHref ? (
            <div className="rounded-lg border-2 border-brand-700 p-4">
              <p className="font-bold">予約の確定には、メールアドレスの確認が必要です。</p>
              <p className="mt-1 text-sm text-neutral-700">
                お送りした確認メールのリンクを開いてから、予約を確定してください。お時間の確保はそのままです。
              </p>
              <p className="mt-2 text-sm">
                <Link to={view.verifyHref} className={linkClass}>
                  確認メールを再送する
                </Link>
              </p>
            </div>
          ) : null}
          <h3 className="text-lg font-bold">お客様情報</h3>
          <ContactForm
            values={{ ...view.contact, ...result?.values }}
            errors={result?.errors ?? {}}
            hidden={[
              ["hold", view.holdId],
              ["idempotencyKey", view.idempotencyKey],
            ]}
            errorSummaryId={stepIds.contactErrors}
            id={stepIds.contactForm}
          />
        </>
      ) : (
        <div className="rounded-lg border-2 border-brand-700 p-4">
          <p className="font-bold">予約を確定するには、ログインしてください。</p>
          <p className="mt-1 text-sm text-neutral-700">
            ログインまたは会員登録のあと、この画面に戻ってお取り置き中の枠のまま続けられます。
          </p>
          <p className="mt-3 flex flex-wrap gap-3">
            <Link
              to={signInHref}
              className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
            >
              ログインして予約を続ける
            </Link>
            <Link
              to={signInHref.replace(/^\/signin/, "/signup")}
              className="rounded-lg border border-brand-700 px-6 py-3 font-bold text-brand-700 hover:bg-brand-50"
            >
              新規会員登録
            </Link>
          </p>
        </div>
      )}
    </section>
  );
}
