/**
 * 事前決済の対象外 (decision 0075): one checkbox for a menu or a coupon, the
 * same words in both tabs of the salon editor. A booking with an exempt part
 * is paid at the salon; the fees still apply.
 */
export function PrepaymentExemptField({ defaultChecked }: { defaultChecked: boolean }) {
  return (
    <label className="flex items-start gap-2 font-bold">
      <input
        type="checkbox"
        name="prepaymentExempt"
        defaultChecked={defaultChecked}
        className="mt-1 size-5 shrink-0"
      />
      <span>
        事前決済の対象外にする（店頭払い）
        <span className="block text-sm font-normal text-neutral-700">
          サロンが事前決済（全額・予約金・カード登録）を使うときも、これを含むご予約は店頭でお支払いいただきます。キャンセル料の規定は変わりません。
        </span>
      </span>
    </label>
  );
}
