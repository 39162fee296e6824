import { formatYen } from "../../../common/format";

/**
 * Before 「お支払いへ進む」 (decision 0078): what is paid now and where,
 * that the booking is made once the payment is confirmed, and, with our
 * fake provider, that it is a テスト決済 (no real money).
 */
export function PaymentNotice({
  due,
  provider,
}: {
  due: { kind: "full" | "deposit" | "card"; amount: number };
  provider: "stripe" | "fake" | null;
}) {
  return (
    <div className="rounded-lg border-2 border-brand-700 p-4" id="booking-payment">
      <h3 className="font-bold">ご予約時のお支払い</h3>
      <p className="mt-1">
        {due.kind === "card"
          ? "このサロンでは、ご予約時にクレジットカードのご登録が必要です（この時点での請求はありません）。"
          : `このサロンでは、ご予約時に${due.kind === "full" ? "全額" : "予約金"} ${formatYen(due.amount)} のお支払いが必要です。`}
      </p>
      <p className="mt-1 text-sm text-neutral-700">
        次へ進むと決済ページに移動します。お支払いの確認ができた時点でご予約が確定します。お手続き中もお時間は確保されます。
      </p>
      {provider === "fake" ? (
        <p className="mt-2 rounded bg-amber-100 px-2 py-1 text-sm font-bold text-amber-900">
          テスト決済：開発用の決済画面です。実際の請求は行われません。
        </p>
      ) : null}
      {provider === null ? (
        <p className="mt-2 text-sm font-bold text-red-800">
          ただいまオンライン決済をご利用いただけません。
        </p>
      ) : null}
    </div>
  );
}
