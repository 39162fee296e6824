import { Link } from "react-router";
import type { ReceiptPageData } from "../../../server/owner/checkout.server";
import { buttonClass } from "../back-office-ui";
import { FocusedNotice } from "../form/focused-notice";
import { OwnerPage } from "./owner-frame";

/**
 * The 領収書 (decision 0079): the salon's name, address and registration
 * number, the date, the lines, the total with 内消費税, how it was paid.
 * Printed from the browser: print: classes hide everything but the receipt
 * (the frame's nav is hidden by its own print: rules); fits 320 px.
 */
export function ReceiptView({ data }: { data: ReceiptPageData }) {
  const back = `/owner/salons/${data.salon.id}/bookings/${data.bookingId}`;
  const r = data.receipt;
  return (
    <OwnerPage title="領収書">
      <div className="mt-4 flex flex-col gap-4">
        <p className="print:hidden">
          <Link to={back} className="font-bold text-brand-700 underline underline-offset-4">
            予約の詳細へ戻る
          </Link>
        </p>
        {data.done ? (
          <div className="print:hidden">
            <FocusedNotice>会計を登録しました（施術完了）。</FocusedNotice>
          </div>
        ) : null}
        {!r ? (
          <p role="status" className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3">
            会計未登録です。領収書は会計を登録すると表示されます。{" "}
            <Link to={`${back}/checkout`} className="font-bold underline">
              会計する
            </Link>
          </p>
        ) : (
          <>
            <p className="print:hidden">
              <button type="button" className={buttonClass} onClick={() => window.print()}>
                印刷する
              </button>
              <a
                href={`${back}/receipt.pdf`}
                className="ml-4 font-bold text-brand-700 underline underline-offset-4"
              >
                PDFで開く
              </a>
            </p>
            <article
              aria-label="領収書"
              data-receipt
              className="mx-auto w-full max-w-md break-words rounded-lg border border-neutral-400 p-4 print:max-w-none print:border-0 print:p-0"
            >
              <h2 className="text-center text-2xl font-bold tracking-widest">領収書</h2>
              <p className="mt-4 border-b border-neutral-800 pb-1 text-lg">
                {r.customerName ? `${r.customerName} 様` : "　　　　　　　様"}
              </p>
              <p className="mt-4 text-center text-3xl font-bold">{r.totalLabel}</p>
              <p className="text-center text-sm">（税込）上記正に領収いたしました</p>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt>日付</dt>
                <dd>{r.dateLabel}</dd>
                <dt>No.</dt>
                <dd>{r.receiptNumber}</dd>
              </dl>
              <table className="mt-4 w-full text-sm">
                <caption className="sr-only">明細</caption>
                <thead>
                  <tr className="border-b border-neutral-400">
                    <th scope="col" className="py-1 text-left">
                      品目
                    </th>
                    <th scope="col" className="py-1 text-right">
                      数量
                    </th>
                    <th scope="col" className="py-1 text-right">
                      金額
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {r.lines.map((line, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: lines in their order
                    <tr key={index} className="border-b border-neutral-200">
                      <td className="py-1">{line.name}</td>
                      <td className="py-1 text-right">{line.quantity}</td>
                      <td className="py-1 text-right">{line.amountLabel}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
                <dt>小計</dt>
                <dd className="text-right">{r.subtotalLabel}</dd>
                {r.discountLabel ? (
                  <>
                    <dt>割引</dt>
                    <dd className="text-right">{r.discountLabel}</dd>
                  </>
                ) : null}
                <dt className="font-bold">合計（税込）</dt>
                <dd className="text-right font-bold">{r.totalLabel}</dd>
                <dt>（内消費税 10%対象 {r.totalLabel}）</dt>
                <dd className="text-right">内消費税 {r.taxLabel}</dd>
                <dt>お支払い方法</dt>
                <dd className="text-right">
                  {r.methodLabel}
                  {r.payments.length > 1
                    ? `（${r.payments.map((p) => `${p.label} ${p.amountLabel}`).join("・")}）`
                    : ""}
                </dd>
                {r.cashReceivedLabel ? (
                  <>
                    <dt>お預かり</dt>
                    <dd className="text-right">{r.cashReceivedLabel}</dd>
                    <dt>お釣り</dt>
                    <dd className="text-right">{r.changeLabel}</dd>
                  </>
                ) : null}
              </dl>
              <div className="mt-6 text-sm">
                <p className="font-bold">{r.salonName}</p>
                <p>
                  〒{r.postalCode} {r.address}
                </p>
                {r.phone ? <p>TEL {r.phone}</p> : null}
                {r.invoiceNumber ? <p>登録番号 {r.invoiceNumber}</p> : null}
                {r.staffName ? <p>担当 {r.staffName}</p> : null}
              </div>
            </article>
          </>
        )}
      </div>
    </OwnerPage>
  );
}
