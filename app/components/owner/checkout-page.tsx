import { Form, Link, useNavigation } from "react-router";
import type {
  CheckoutErrors,
  CheckoutInput,
  CheckoutPageData,
  CheckoutPreview,
} from "../../../server/owner/checkout.server";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { OwnerPage } from "./owner-frame";

export type CheckoutResult = {
  errors: CheckoutErrors;
  values: CheckoutInput;
  preview?: CheckoutPreview;
};

const sectionClass = "rounded-lg border border-neutral-300 p-4";
const headingClass = "mb-3 text-lg font-bold";

/**
 * 会計 (decision 0079): the booked menus' final prices, 指名料, a discount,
 * retail items by quantity, the method (and its parts for 組み合わせ) and
 * the cash handed over. 計算する shows the server's figures without saving;
 * 会計を登録 saves and completes the visit. Works without JavaScript.
 */
export function CheckoutView({
  data,
  result,
}: {
  data: CheckoutPageData;
  result: CheckoutResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const { booking } = data;
  const base = `/owner/salons/${data.salon.id}/bookings/${booking?.id ?? ""}`;
  const typed = result?.values;
  const errors = result?.errors ?? {};
  if (!booking) return null;
  const method = typed?.method ?? "cash";
  return (
    <OwnerPage title={`会計 予約 ${booking.bookingNumber}`}>
      <div className="mt-4 flex flex-col gap-6">
        <p>
          <Link to={base} className="font-bold text-brand-700 underline underline-offset-4">
            予約の詳細へ戻る
          </Link>
        </p>
        <p>
          {booking.customerName || "（お名前なし）"}様・{booking.dateLabel} {booking.timeLabel}
          ・予約時の金額 {booking.totalLabel}
        </p>
        {data.voided ? (
          <p role="status" className="rounded-lg border-2 border-green-700 bg-green-50 p-3">
            会計を取り消しました。正しい内容で、もう一度登録してください。
          </p>
        ) : null}
        {data.saved ? (
          <section className={sectionClass} aria-labelledby="saved-heading">
            <h2 id="saved-heading" className={headingClass}>
              会計は登録済みです
            </h2>
            <p>
              合計 {data.saved.totalLabel}（{data.saved.methodLabel}）
            </p>
            <p className="mt-3">
              <Link to={`${base}/receipt`} className={`${buttonClass} inline-block`}>
                領収書を表示
              </Link>
            </p>
            {data.canVoid ? (
              <Form
                method="post"
                noValidate
                aria-labelledby="void-heading"
                className="mt-6 flex flex-col gap-3 border-t border-neutral-300 pt-4"
              >
                <h3 id="void-heading" className="font-bold">
                  会計を取り消す（店長・オーナー）
                </h3>
                <p className="text-sm text-neutral-700">
                  金額や支払い方法を間違えたときに。取り消した会計は記録に残り、もう一度登録できます。締めた日の会計は、先に日計の締めを取り消してください。
                </p>
                {errors.void ? (
                  <p role="alert" className="font-bold text-red-700">
                    {errors.void}
                  </p>
                ) : null}
                <TextField
                  id="void-reason"
                  name="reason"
                  label="取り消しの理由（必須）"
                  autoComplete="off"
                  maxLength={200}
                  error={errors.reason}
                />
                <p>
                  <button
                    type="submit"
                    name="intent"
                    value="void"
                    className={secondaryButtonClass}
                    disabled={busy}
                  >
                    この会計を取り消す
                  </button>
                </p>
              </Form>
            ) : null}
          </section>
        ) : data.refusal ? (
          <p role="status" className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3">
            {data.refusal}
          </p>
        ) : (
          <Form method="post" noValidate className="flex flex-col gap-6">
            <ErrorSummary errors={errors} />
            <input type="hidden" name="version" value={booking.version} />
            <fieldset className={sectionClass}>
              <legend className="px-1 font-bold">施術（税込）</legend>
              <div className="flex flex-col gap-3">
                {booking.menus.map((menu, index) => (
                  <TextField
                    // biome-ignore lint/suspicious/noArrayIndexKey: the booked menus' positions
                    key={index}
                    id={`menu-${index}`}
                    name={`menuPrice.${index}`}
                    label={`${menu.name}（予約時 ${menu.priceLabel}）`}
                    inputMode="numeric"
                    autoComplete="off"
                    defaultValue={typed?.menuPrices[index] ?? String(menu.price)}
                    error={errors[`menu.${index}`]}
                  />
                ))}
                {booking.nominationFee > 0 ? (
                  <TextField
                    id="nomination-fee"
                    name="nominationFee"
                    label="指名料"
                    inputMode="numeric"
                    autoComplete="off"
                    defaultValue={typed?.nominationFee ?? String(booking.nominationFee)}
                    error={errors.nominationFee}
                  />
                ) : null}
              </div>
            </fieldset>

            <fieldset className={sectionClass}>
              <legend className="px-1 font-bold">店販（数量）</legend>
              {errors.products ? (
                <p className="mb-2 text-sm font-bold text-red-700">{errors.products}</p>
              ) : null}
              {data.products.length === 0 ? (
                <p className="text-sm text-neutral-700">
                  店販商品は登録されていません（サロン情報の「店販商品・領収書」で登録できます）。
                </p>
              ) : (
                <div className="flex flex-col gap-3">
                  {data.products.map((product) => (
                    <TextField
                      key={product.id}
                      id={`qty-${product.id}`}
                      name={`qty.${product.id}`}
                      label={`${product.name}（${product.priceLabel}）`}
                      inputMode="numeric"
                      autoComplete="off"
                      defaultValue={typed?.quantities[product.id] ?? "0"}
                      error={errors[`product.${product.id}`]}
                    />
                  ))}
                </div>
              )}
            </fieldset>

            <TextField
              id="discount"
              name="discount"
              label="割引（円）"
              hint="クーポン・値引きの合計。予約時のクーポン割引が入っています。"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={typed?.discount ?? String(booking.bookedDiscount)}
              error={errors.discount ?? errors.total}
            />

            {data.prepaid ? (
              <section className={sectionClass} aria-labelledby="prepaid-heading">
                <h2 id="prepaid-heading" className={headingClass}>
                  事前決済 済み {data.prepaid.amountLabel}
                </h2>
                <p>
                  オンラインでお支払い済みの分は、事前決済として自動で差し引きます。予約時の金額なら、お店でのお支払いは
                  {data.prepaid.bookedDueLabel}です。
                </p>
                {data.prepaid.overpaidLabel ? (
                  <p className="mt-2 font-bold">
                    事前決済が予約時の金額を{data.prepaid.overpaidLabel}上回っています。
                    <Link to={`${base}#booking-money-heading`} className="text-brand-700 underline">
                      予約の詳細の「お支払い・キャンセル料・返金」
                    </Link>
                    から返金できます。
                  </p>
                ) : null}
              </section>
            ) : null}

            <fieldset
              className={sectionClass}
              aria-describedby={errors.method ? "method-error" : undefined}
            >
              <legend className="px-1 font-bold">
                {data.prepaid ? "お店でのお支払い方法（事前決済の残り）" : "お支払い方法"}
              </legend>
              {errors.method ? (
                <p id="method-error" className="mb-2 text-sm font-bold text-red-700">
                  {errors.method}
                </p>
              ) : null}
              <div className="flex flex-col gap-2">
                {data.methods.map((m) => (
                  <label key={m.value} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="method"
                      value={m.value}
                      defaultChecked={method === m.value}
                    />
                    {m.label}
                  </label>
                ))}
              </div>
              <fieldset className="mt-4 rounded-lg border border-neutral-200 p-3">
                <legend className="px-1 text-sm font-bold">
                  組み合わせの内訳（組み合わせのときだけ）
                </legend>
                {errors.parts ? (
                  <p className="mb-2 text-sm font-bold text-red-700">{errors.parts}</p>
                ) : null}
                <div className="flex flex-col gap-3">
                  {data.parts.map((p) => (
                    <TextField
                      key={p.value}
                      id={`part-${p.value}`}
                      name={`part.${p.value}`}
                      label={`${p.label}（円）`}
                      inputMode="numeric"
                      autoComplete="off"
                      defaultValue={typed?.parts[p.value] ?? ""}
                      error={errors[`part.${p.value}`]}
                    />
                  ))}
                </div>
              </fieldset>
            </fieldset>

            <TextField
              id="cash-received"
              name="cashReceived"
              label="お預かり（現金・円）"
              hint="現金のときに。空欄ならお釣りなしで受け取った扱いです。"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={typed?.cashReceived ?? ""}
              error={errors.cashReceived}
            />

            {result?.preview ? <Preview preview={result.preview} /> : null}

            <div className="flex flex-wrap gap-3">
              <button
                type="submit"
                name="intent"
                value="preview"
                className={secondaryButtonClass}
                disabled={busy}
              >
                計算する
              </button>
              <button
                type="submit"
                name="intent"
                value="save"
                className={buttonClass}
                disabled={busy}
              >
                会計を登録（施術完了）
              </button>
            </div>
          </Form>
        )}
      </div>
    </OwnerPage>
  );
}

function Preview({ preview }: { preview: CheckoutPreview }) {
  return (
    <section role="status" className={sectionClass} aria-labelledby="preview-heading">
      <h2 id="preview-heading" className={headingClass}>
        計算結果（まだ登録されていません）
      </h2>
      <ul className="flex flex-col gap-1">
        {preview.lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines in their order
          <li key={index} className="flex justify-between gap-2">
            <span>
              {line.name}
              {line.quantity > 1 ? ` ×${line.quantity}` : ""}
            </span>
            <span>{line.amountLabel}</span>
          </li>
        ))}
      </ul>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt>小計</dt>
        <dd className="text-right">{preview.subtotalLabel}</dd>
        <dt>割引</dt>
        <dd className="text-right">{preview.discountLabel}</dd>
        <dt className="font-bold">合計（税込）</dt>
        <dd className="text-right font-bold">{preview.totalLabel}</dd>
        <dt>内消費税（10%）</dt>
        <dd className="text-right">{preview.taxLabel}</dd>
        {preview.prepaidLabel !== null ? (
          <>
            <dt>事前決済 済み</dt>
            <dd className="text-right">{preview.prepaidLabel}</dd>
            <dt className="font-bold">お店でのお支払い</dt>
            <dd className="text-right font-bold">{preview.dueLabel}</dd>
          </>
        ) : null}
        {preview.changeLabel !== null ? (
          <>
            <dt>お釣り</dt>
            <dd className="text-right">{preview.changeLabel}</dd>
          </>
        ) : null}
      </dl>
      {preview.overpaidLabel !== null ? (
        <p className="mt-3 font-bold">
          事前決済が合計を{preview.overpaidLabel}
          上回っています。差額は、予約の詳細の「お支払い・キャンセル料・返金」から返金できます。
        </p>
      ) : null}
    </section>
  );
}
