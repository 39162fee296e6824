import { useState } from "react";
import { Link } from "react-router";
import { paymentAtBooking } from "../../../common/payment-policy";
import type { HoldView } from "../../../server/bookings/pages/confirm-page.server";
import { linkClass } from "../accounts/account-frame";
import { BookingSummary, HoldCountdown } from "./booking-summary";
import { ContactForm } from "./contact-form";
import { HoldExpiredNotice } from "./hold-expired-notice";
import { PaymentNotice } from "./payment-notice";
import { PolicyTerms } from "./policy-terms";
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
  // A salon that approves its bookings gets a request, said as one before the click (decision 0071).
  const request = view.approval !== null;
  const act = request ? "予約をリクエストする" : "予約を確定する";
  // Payment due at booking (decision 0078): the button says where it leads.
  const due = view.policy ? paymentAtBooking(view.policy.terms) : null;
  return (
    <section aria-labelledby={stepIds.confirm} className="mt-6 flex flex-col gap-6">
      <h2 id={stepIds.confirm} tabIndex={-1} className="text-xl font-bold">
        5. 内容を確認して{act}
      </h2>
      <HoldCountdown
        expiresAt={view.expiresAt}
        now={view.now}
        onExpire={() => setExpired(true)}
        finish={request ? "リクエストを送信" : "予約を確定"}
      />
      {expired ? (
        <HoldExpiredNotice repickHref={view.repickHref} formId={stepIds.contactForm} />
      ) : null}
      <BookingSummary summary={view.summary} />
      {view.approval ? <ApprovalNotice deadlineLabel={view.approval.deadlineLabel} /> : null}
      {view.policy ? <PolicyTerms terms={view.policy.terms} id="booking-policy" /> : null}
      {due ? <PaymentNotice due={due} provider={view.paymentProvider ?? null} /> : null}
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
                お送りした確認メールのリンクを開いてから、
                {request ? "予約をリクエスト" : "予約を確定"}
                してください。お時間の確保はそのままです。
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
            submitLabel={due ? (due.kind === "card" ? "カード登録へ進む" : "お支払いへ進む") : act}
            policy={view.policy ? { digest: view.policy.digest, termsId: "booking-policy" } : null}
            student={
              view.studentCoupon
                ? {
                    checked: result?.values
                      ? (result.values as Record<string, string>).student === "on"
                      : false,
                  }
                : null
            }
          />
        </>
      ) : (
        <div className="rounded-lg border-2 border-brand-700 p-4">
          <p className="font-bold">
            {request ? "予約をリクエストする" : "予約を確定する"}には、ログインしてください。
          </p>
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

/**
 * What a request means, before the button (decision 0071): 仮予約 until the
 * salon approves, its answer by the deadline, else the request lapses by
 * itself and a mail says so.
 */
function ApprovalNotice({ deadlineLabel }: { deadlineLabel: string }) {
  return (
    <div className="rounded-lg border-2 border-amber-700 bg-amber-50 p-4">
      <p className="font-bold">このサロンのご予約は、サロンの承認が必要です（リクエスト予約）。</p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        <li>
          リクエストの送信後、サロンが承認するまでは仮予約です。お時間はお客様のために確保されます。
        </li>
        <li>
          サロンは <strong>{deadlineLabel}</strong>{" "}
          までに回答します。承認されるとご予約が確定し、メールでお知らせします。
        </li>
        <li>
          期限までに承認されない場合、リクエストは自動的に取り消され、メールでお知らせします。
        </li>
      </ul>
    </div>
  );
}
