import { Form } from "react-router";
import type { OwnerPaymentLine } from "../../../server/owner/booking-money.server";

/**
 * The salon's list of a booking's payments, fees and refunds (decision
 * 0080): what, how much, its state (and why a fee was not taken), who and
 * when, and the acts this person may take on each — 返金 (all that is left,
 * or a part typed in yen), 請求しない for a fee not taken, 再試行 for one
 * the provider did not answer. Plain POST forms: they work without
 * JavaScript, and the server computes every amount.
 */

const smallButton =
  "rounded-lg border border-neutral-500 bg-white px-3 py-1 text-sm font-bold text-neutral-900 hover:bg-neutral-100";

export function BookingMoney({ payments }: { payments: OwnerPaymentLine[] }) {
  if (payments.length === 0) return null;
  return (
    <section aria-labelledby="booking-money-heading" className="flex flex-col gap-2">
      <h3 id="booking-money-heading" className="text-lg font-bold">
        お支払い・キャンセル料・返金
      </h3>
      <ul className="flex flex-col gap-3">
        {payments.map((payment) => (
          <li
            key={payment.id}
            className="rounded border border-neutral-300 p-3"
            data-payment-kind={payment.kind}
          >
            <p className="font-bold">
              {payment.kindLabel} <span className="tabular-nums">{payment.amountLabel}</span>
            </p>
            <p className="text-sm">
              状態：{payment.statusLabel}
              {payment.reason ? `（${payment.reason}）` : null}
            </p>
            <p className="text-sm">
              {payment.atLabel}・{payment.byLabel}
            </p>
            {payment.refundable > 0 && payment.status === "refunded" ? (
              <p className="text-sm">返金できる残り：{payment.refundableLabel}</p>
            ) : null}
            <div className="mt-2 flex flex-wrap items-end gap-2">
              {payment.refundable > 0 ? (
                <Form method="post" aria-label={`${payment.kindLabel}を返金`}>
                  <input type="hidden" name="intent" value="refund_payment" />
                  <input type="hidden" name="paymentId" value={payment.id} />
                  <label className="flex flex-col text-sm" htmlFor={`refund-${payment.id}`}>
                    返金額（円・空欄で残り全額 {payment.refundableLabel}）
                    <input
                      id={`refund-${payment.id}`}
                      name="amount"
                      inputMode="numeric"
                      autoComplete="off"
                      className="mt-1 w-32 rounded border border-neutral-500 px-2 py-1"
                    />
                  </label>
                  <button type="submit" className={`${smallButton} mt-1`}>
                    返金する
                  </button>
                </Form>
              ) : null}
              {payment.canWaive ? (
                <Form method="post" aria-label={`${payment.kindLabel}を請求しない`}>
                  <input type="hidden" name="intent" value="waive_fee" />
                  <input type="hidden" name="paymentId" value={payment.id} />
                  <button type="submit" className={smallButton}>
                    請求しない
                  </button>
                </Form>
              ) : null}
              {payment.canRetry ? (
                <Form method="post" aria-label={`${payment.kindLabel}を再試行`}>
                  <input type="hidden" name="intent" value="retry_payment" />
                  <input type="hidden" name="paymentId" value={payment.id} />
                  <button type="submit" className={smallButton}>
                    再試行
                  </button>
                </Form>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
