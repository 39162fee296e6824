import type { PaymentLine } from "../../../server/payments/payment-lines";

/**
 * A booking's payments as the provider answered them (decision 0078): the
 * kind, the amount in yen, the status and when. A table, so a screen reader
 * reads each value with its column; it scrolls on its own at 320 px.
 */
export function PaymentList({
  payments,
  heading = "お支払い",
  headingLevel = "h2",
  testPayments = false,
}: {
  payments: PaymentLine[];
  heading?: string;
  headingLevel?: "h2" | "h3";
  /** Paid through our fake provider: said, so nobody takes it for real money. */
  testPayments?: boolean;
}) {
  if (payments.length === 0) return null;
  const Heading = headingLevel;
  return (
    <section aria-labelledby="payment-list-heading" className="flex flex-col gap-2">
      <Heading id="payment-list-heading" className="text-lg font-bold">
        {heading}
        {testPayments ? "（テスト決済）" : null}
      </Heading>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-1 pr-3">
                内容
              </th>
              <th scope="col" className="py-1 pr-3 text-right">
                金額
              </th>
              <th scope="col" className="py-1 pr-3">
                状態
              </th>
              <th scope="col" className="py-1">
                日時
              </th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id} className="border-b last:border-0">
                <td className="py-1 pr-3">{payment.kindLabel}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{payment.amountLabel}</td>
                <td className="py-1 pr-3">{payment.statusLabel}</td>
                <td className="py-1">{payment.atLabel}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
