import { Form, Link, useNavigation } from "react-router";
import { formatYen } from "../../../common/format";
import type { PolicySnapshot } from "../../../common/payment-policy";
import { bookingStatusLabels } from "../../../common/status-labels";
import type { PaymentLine } from "../../../server/payments/payment-lines";
import { formatBookingRange } from "../../lib/booking-format";
import { linkClass } from "../accounts/account-frame";
import { TextAreaField } from "../form/field";
import { PaymentList } from "./payment-list";
import { PolicyTerms } from "./policy-terms";

export type HistoryBooking = {
  id: string;
  bookingNumber: string;
  status: string;
  /** The status in words (仮予約（サロンの承認待ち） while pending; decision 0051). */
  statusLabel?: string;
  /** Waiting for the salon's approval. */
  pending?: boolean;
  /** ISO instants. */
  startsAt: string;
  endsAt: string;
  totalPrice: number;
  /** 指名料 in totalPrice (decision 0047); absent or 0: none. */
  nominationFee?: number;
  salon: { slug: string; name: string; timeZone: string };
  /** null: 指名なし (the name of the assigned stylist is still shown in the detail). */
  staffName: string;
  staffRequested: boolean;
  menus: { name: string; price: number; durationMinutes: number }[];
  notes: string;
  /** The payment and cancellation policy agreed to at booking (decision 0075); null: none. */
  paymentPolicy?: PolicySnapshot | null;
  /** What was paid, refunded, or kept on a card (decision 0083); the detail only. */
  payments?: PaymentLine[];
  cancellable: boolean;
  /** 予約変更 in the booking flow, while the web may still change it (before the cutoff); else null. */
  changeHref: string | null;
  /** Moved or its menus changed at least once. */
  changed: boolean;
  /** The confirm URL with the same menus and stylist. */
  rebookHref: string;
  /** A completed visit's review (decision 0054): write, edit, already written; else null. */
  review?: "write" | "edit" | "written" | null;
  reviewHref?: string | null;
  /** What cancelling now would cost, shown before the visitor confirms (decision 0080). */
  cancelFeeNotice?: string | null;
};

/** 口コミを書く / 口コミを編集する as a link, 口コミ投稿済み (edit window closed) as a link to read it. */
function ReviewLink({ booking }: { booking: HistoryBooking }) {
  if (!booking.review || !booking.reviewHref) return null;
  const label =
    booking.review === "write"
      ? "口コミを書く"
      : booking.review === "edit"
        ? "口コミを編集する"
        : "口コミ投稿済み";
  return (
    <Link
      to={booking.reviewHref}
      className={linkClass}
      aria-label={`予約番号${booking.bookingNumber}の${label}`}
    >
      {label}
    </Link>
  );
}

/** 変更済み: the booking was moved or its menus changed (by the customer or the salon). */
function ChangedBadge({ changed }: { changed: boolean }) {
  if (!changed) return null;
  return (
    <span className="inline-block rounded border border-brand-700 px-2 py-0.5 text-xs font-bold text-brand-700">
      変更済み
    </span>
  );
}

/** The way into 予約変更, named by the booking for screen readers' link lists. */
function ChangeLink({ booking }: { booking: HistoryBooking }) {
  if (!booking.changeHref) return null;
  return (
    <Link
      to={booking.changeHref}
      className={linkClass}
      aria-label={`予約番号${booking.bookingNumber}の予約を変更する`}
    >
      予約を変更する
    </Link>
  );
}

function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone =
    label && label !== bookingStatusLabels[status]
      ? "border-2 border-amber-700 bg-amber-50 text-amber-900"
      : status === "confirmed"
        ? "bg-brand-700 text-white"
        : status === "completed"
          ? "bg-neutral-200 text-neutral-900"
          : "border border-red-700 text-red-700";
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-bold ${tone}`}>
      {label ?? bookingStatusLabels[status] ?? status}
    </span>
  );
}

/** One booking in the history list. */
export function BookingCard({ booking }: { booking: HistoryBooking }) {
  return (
    <article className="flex flex-col gap-1 rounded-lg border border-neutral-300 p-4">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <StatusBadge status={booking.status} label={booking.statusLabel} />
        <ChangedBadge changed={booking.changed} />
        <span>予約番号 {booking.bookingNumber}</span>
      </p>
      <h3 className="text-lg font-bold">{booking.salon.name}</h3>
      <p>
        {formatBookingRange(
          new Date(booking.startsAt),
          new Date(booking.endsAt),
          booking.salon.timeZone,
        )}
      </p>
      <p className="text-sm text-neutral-700">
        {booking.menus.map((menu) => menu.name).join("、")}
      </p>
      <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        <Link
          to={`/account/history?booking=${booking.id}`}
          className={linkClass}
          aria-label={`予約番号${booking.bookingNumber}の詳細を見る`}
        >
          詳細を見る
        </Link>
        <ChangeLink booking={booking} />
        <ReviewLink booking={booking} />
      </p>
    </article>
  );
}

/** The detail of one booking, with cancel (a confirm step that works without JavaScript) and rebook. */
export function BookingDetail({
  booking,
  confirmingCancel,
  cancelCutoffText,
  error,
  testPayments = false,
}: {
  booking: HistoryBooking;
  confirmingCancel: boolean;
  cancelCutoffText: string;
  error: string | null;
  /** Paid through our fake provider (テスト決済). */
  testPayments?: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="booking-detail" className="flex flex-col gap-4">
      <h2 id="booking-detail" tabIndex={-1} className="text-xl font-bold">
        予約番号 {booking.bookingNumber}
      </h2>
      {error ? (
        <p id="history-error" tabIndex={-1} role="alert" className="font-bold text-red-700">
          {error}
        </p>
      ) : null}
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 rounded-lg border border-neutral-300 p-4 sm:grid-cols-[8rem_1fr]">
        <dt className="font-bold">状態</dt>
        <dd className="flex flex-wrap gap-2">
          <StatusBadge status={booking.status} label={booking.statusLabel} />
          <ChangedBadge changed={booking.changed} />
          {booking.pending ? (
            <span className="w-full text-sm text-neutral-700">
              サロンが承認するとご予約が確定し、メールでお知らせします。承認を待つ間もキャンセルできます。
            </span>
          ) : null}
        </dd>
        <dt className="font-bold">サロン</dt>
        <dd>
          <Link to={`/salons/${booking.salon.slug}`} className={linkClass}>
            {booking.salon.name}
          </Link>
        </dd>
        <dt className="font-bold">日時</dt>
        <dd>
          {formatBookingRange(
            new Date(booking.startsAt),
            new Date(booking.endsAt),
            booking.salon.timeZone,
          )}
        </dd>
        <dt className="font-bold">メニュー</dt>
        <dd>
          <ul>
            {booking.menus.map((menu) => (
              <li key={menu.name}>
                {menu.name}（{formatYen(menu.price)}）
              </li>
            ))}
          </ul>
        </dd>
        <dt className="font-bold">スタッフ</dt>
        <dd>
          {booking.staffName}
          {booking.staffRequested ? "（指名）" : "（指名なし）"}
          {booking.nominationFee ? `・指名料 ${formatYen(booking.nominationFee)}` : null}
        </dd>
        <dt className="font-bold">お支払い予定額</dt>
        <dd>{formatYen(booking.totalPrice)}</dd>
        {booking.notes ? (
          <>
            <dt className="font-bold">ご要望</dt>
            <dd className="whitespace-pre-line">{booking.notes}</dd>
          </>
        ) : null}
      </dl>
      {booking.payments?.length ? (
        <PaymentList payments={booking.payments} headingLevel="h3" testPayments={testPayments} />
      ) : null}
      {booking.paymentPolicy ? (
        <PolicyTerms
          terms={booking.paymentPolicy}
          id="history-policy"
          heading="ご予約時に同意したお支払いとキャンセルポリシー"
        />
      ) : null}
      <p className="text-sm text-neutral-700">{cancelCutoffText}</p>
      {booking.cancellable ? (
        confirmingCancel ? (
          <Form
            method="post"
            action={`/account/history?booking=${booking.id}`}
            className="flex flex-col gap-3 rounded-lg border-2 border-red-700 p-4"
          >
            <h3 id="cancel-confirm" tabIndex={-1} className="font-bold">
              この予約をキャンセルしますか？
            </h3>
            {booking.cancelFeeNotice ? <p>{booking.cancelFeeNotice}</p> : null}
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="booking" value={booking.id} />
            <TextAreaField
              id="cancel-reason"
              name="reason"
              label="キャンセルの理由（任意）"
              hint="200文字以内"
              rows={3}
              maxLength={200}
            />
            <div className="flex flex-wrap gap-3">
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg bg-red-700 px-6 py-3 font-bold text-white hover:bg-red-800 disabled:opacity-60"
              >
                キャンセルを確定する
              </button>
              <Link
                to={`/account/history?booking=${booking.id}`}
                className="rounded-lg border border-neutral-400 px-6 py-3 font-bold"
              >
                やめる
              </Link>
            </div>
          </Form>
        ) : (
          <p>
            <Link
              to={`/account/history?booking=${booking.id}&cancel=1`}
              className="inline-block rounded-lg border-2 border-red-700 px-6 py-3 font-bold text-red-700 hover:bg-red-50"
            >
              この予約をキャンセルする
            </Link>
          </p>
        )
      ) : null}
      <ul className="flex flex-col gap-2">
        {booking.changeHref ? (
          <li>
            <ChangeLink booking={booking} />
            <span className="ml-2 text-sm text-neutral-700">
              （日時・スタッフ・メニュー。予約番号はそのままです）
            </span>
          </li>
        ) : null}
        {booking.review ? (
          <li>
            <ReviewLink booking={booking} />
          </li>
        ) : null}
        <li>
          <Link to={booking.rebookHref} className={linkClass}>
            同じメニューでもう一度予約する
          </Link>
        </li>
        <li>
          <Link to="/account/history" className={linkClass}>
            予約履歴の一覧へ戻る
          </Link>
        </li>
      </ul>
    </section>
  );
}
