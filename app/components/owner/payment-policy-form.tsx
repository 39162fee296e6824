import { Form } from "react-router";
import { paymentModeLabels, paymentModes, policyBounds } from "../../../common/payment-policy";
import type {
  PaymentPolicyErrors,
  PaymentPolicyValues,
} from "../../../server/owner/payment-policy.server";
import { buttonClass } from "../back-office-ui";
import { ErrorSummary, TextAreaField, TextField } from "../form/field";

const modeHints: Record<(typeof paymentModes)[number], string> = {
  none: "料金はすべて店頭でお支払いいただきます。",
  full: "ご予約時にメニュー料金の全額をオンラインでお支払いいただきます。",
  deposit: "ご予約時に予約金（料金の一部）をオンラインでお支払いいただきます。",
  card_only: "ご予約時にカードだけを登録していただき、キャンセル料の請求に使います。",
};

/**
 * 設定 → お支払いとキャンセル料 (issue 40, §1; decision 0075): the payment
 * mode, the deposit, the three fee windows and a short note. The text the
 * visitors read is generated from these numbers (common/payment-policy.ts).
 */
export function PaymentPolicySection({
  values,
  errors,
  preview,
  busy,
}: {
  values: PaymentPolicyValues;
  errors: PaymentPolicyErrors;
  /** The saved policy as visitors read it. */
  preview: string[];
  busy: boolean;
}) {
  const { depositPercent, depositYen, noteLength } = policyBounds;
  return (
    <section aria-labelledby="policy-heading" className="flex max-w-2xl flex-col gap-4">
      <h2 id="policy-heading" className="text-xl font-bold">
        お支払いとキャンセル料
      </h2>
      <p>
        お客様が予約を確定する前に、この内容から作った案内文と、そのご予約での金額・日時を表示し、同意をいただきます。変更しても、すでに入っている予約には前の内容がそのまま適用されます。
      </p>
      {preview.length > 0 ? (
        <div className="rounded-lg border border-neutral-300 p-3">
          <p className="font-bold">お客様に表示する案内（保存済みの内容）</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {preview.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" noValidate className="flex flex-col gap-4" key={JSON.stringify(errors)}>
        <ErrorSummary errors={errors} />
        <input type="hidden" name="intent" value="payment-policy" />
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors.mode ? "policy-mode-error" : undefined}
        >
          <legend className="font-bold">事前決済</legend>
          {paymentModes.map((mode) => (
            <label key={mode} className="flex items-start gap-2">
              <input
                type="radio"
                name="mode"
                value={mode}
                defaultChecked={values.mode === mode}
                className="mt-1 size-5 shrink-0"
              />
              <span>
                <span className="font-bold">{paymentModeLabels[mode]}</span>
                <span className="block text-sm text-neutral-700">{modeHints[mode]}</span>
              </span>
            </label>
          ))}
          {errors.mode ? (
            <p id="policy-mode-error" className="text-sm font-bold text-red-700">
              {errors.mode}
            </p>
          ) : null}
        </fieldset>
        <fieldset className="flex flex-col gap-2 rounded-lg border border-neutral-300 p-3">
          <legend className="px-1 font-bold">予約金（「予約金」を選んだときだけ使います）</legend>
          <div className="flex flex-wrap gap-4">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="depositKind"
                value="percent"
                defaultChecked={values.depositKind !== "yen"}
                className="size-5"
              />
              ご予約金額の%
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="depositKind"
                value="yen"
                defaultChecked={values.depositKind === "yen"}
                className="size-5"
              />
              金額（円）
            </label>
          </div>
          {errors.depositKind ? (
            <p className="text-sm font-bold text-red-700">{errors.depositKind}</p>
          ) : null}
          <TextField
            id="policy-deposit-value"
            name="depositValue"
            label="予約金"
            inputMode="numeric"
            hint={`%なら${depositPercent.min}〜${depositPercent.max}、円なら${depositYen.min}〜${depositYen.max.toLocaleString("ja-JP")}の整数。円がご予約金額を超えるときはご予約金額までです。`}
            defaultValue={values.depositValue}
            error={errors.depositValue}
          />
        </fieldset>
        <fieldset className="flex flex-col gap-3">
          <legend className="font-bold">キャンセル料（ご予約金額に対する%、0〜100の整数）</legend>
          <p id="policy-fee-note" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
            消費者契約法第9条により、キャンセル料のうちサロンに生じる平均的な損害の額を超える部分は無効です。実際の損害（準備した材料や、ほかのお客様を受けられなかった分など）に見合う割合にしてください。日付はサロンの所在地の暦日で数えます（前日＝ご予約日の前日0:00から、当日＝ご予約日の0:00から）。
          </p>
          <TextField
            id="policy-day-before"
            name="dayBeforePercent"
            label="前日のキャンセル（%）"
            inputMode="numeric"
            defaultValue={values.dayBeforePercent}
            error={errors.dayBeforePercent}
          />
          <TextField
            id="policy-same-day"
            name="sameDayPercent"
            label="当日のキャンセル（%）"
            inputMode="numeric"
            defaultValue={values.sameDayPercent}
            error={errors.sameDayPercent}
          />
          <TextField
            id="policy-no-show"
            name="noShowPercent"
            label="無断キャンセル（%）"
            inputMode="numeric"
            defaultValue={values.noShowPercent}
            error={errors.noShowPercent}
          />
        </fieldset>
        <TextAreaField
          id="policy-note"
          name="note"
          label="補足（任意）"
          hint={`案内文の最後に添えます（${noteLength}文字以内）。金額や割合は上の欄で決め、ここには書かないでください。`}
          rows={3}
          maxLength={noteLength}
          defaultValue={values.note}
          error={errors.note}
        />
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            お支払いとキャンセル料を保存する
          </button>
        </div>
      </Form>
    </section>
  );
}
