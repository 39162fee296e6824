import { Link } from "react-router";
import type { BookingSummaryData } from "../../../common/booking-summary";
import type { PolicySnapshot } from "../../../common/payment-policy";
import type { PaymentLine } from "../../../server/payments/payment-lines";
import { linkClass } from "../accounts/account-frame";
import { BookingSummary } from "./booking-summary";
import { PaymentList } from "./payment-list";
import { PolicyTerms } from "./policy-terms";

type Props = {
  number: string;
  summary: BookingSummaryData;
  icsHref: string;
  email: string;
  /** Where the confirmation went (the visitor's channel for booking messages). */
  sentBy?: { mail: boolean; line: boolean };
  /** Approval mode (decision 0051): the salon has yet to approve this 仮予約. */
  pending?: boolean;
  /** When the 仮予約 lapses if the salon does not answer (decision 0071). */
  approvalDeadlineLabel?: string | null;
  /** The payment and cancellation policy agreed to (decision 0075). */
  paymentPolicy?: PolicySnapshot | null;
  /** What was paid online (decision 0078); `testPayments`: through the fake (テスト決済). */
  payments?: PaymentLine[];
  testPayments?: boolean;
  /** The visitor stated they are a student for a 学割 coupon (decision 0087). */
  studentDeclared?: boolean;
};

/** The end of the flow: the booking number large, what was booked, calendar file, history. */
export function BookingThanks({
  number,
  summary,
  icsHref,
  email,
  sentBy = { mail: true, line: false },
  pending = false,
  approvalDeadlineLabel = null,
  paymentPolicy = null,
  payments = [],
  testPayments = false,
  studentDeclared = false,
}: Props) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 id="thanks-heading" tabIndex={-1} className="text-2xl font-bold">
        {pending ? "仮予約を受け付けました" : "ご予約が確定しました"}
      </h1>
      {pending ? (
        <div className="mt-4 rounded-lg border-2 border-amber-700 bg-amber-50 p-4">
          <p className="font-bold">状態：仮予約（サロンの承認待ち）</p>
          <p className="mt-1">
            このサロンではご予約にサロンの承認が必要です。承認されるとご予約が確定し、メールでお知らせします。それまでこのお時間はお客様のために確保されています。承認されなかった場合もメールでお知らせします。
          </p>
          {approvalDeadlineLabel ? (
            <p className="mt-1">
              サロンの回答期限：<strong>{approvalDeadlineLabel}</strong>
              。期限までに承認されない場合、仮予約は自動的に取り消され、メールでお知らせします。
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="mt-4">予約番号</p>
      <p className="text-4xl font-bold tracking-widest" data-testid="booking-number">
        {number}
      </p>
      <p className="mt-2 text-sm text-neutral-700">
        {sentBy.line && sentBy.mail
          ? `確認メールを ${email} に、確認のメッセージをLINEにお送りしました。`
          : sentBy.line
            ? "確認のメッセージをLINEにお送りしました。"
            : `確認メールを ${email} にお送りしました。`}
        来店時に予約番号をお伝えいただくとスムーズです。
      </p>
      <div className="mt-6">
        <BookingSummary summary={summary} />
      </div>
      {studentDeclared ? (
        <p
          className="mt-4 rounded-lg border-2 border-sky-700 bg-sky-50 p-4"
          data-testid="student-note"
        >
          <strong>学割</strong>：ご来店時に学生証をご提示ください。
        </p>
      ) : null}
      {payments.length > 0 ? (
        <div className="mt-6">
          <PaymentList payments={payments} testPayments={testPayments} />
        </div>
      ) : null}
      {paymentPolicy ? (
        <div className="mt-6">
          <PolicyTerms
            terms={paymentPolicy}
            id="thanks-policy"
            heading="ご同意いただいたお支払いとキャンセルポリシー"
            headingLevel="h2"
          />
        </div>
      ) : null}
      <ul className="mt-6 flex flex-col gap-3">
        <li>
          <a href={icsHref} download className={linkClass}>
            {pending
              ? "カレンダーに仮の予定として追加する（.ics ファイル）"
              : "カレンダーに追加する（.ics ファイル）"}
          </a>
        </li>
        <li>
          <Link to="/account/history" className={linkClass}>
            予約履歴を見る
          </Link>
        </li>
      </ul>
    </div>
  );
}
