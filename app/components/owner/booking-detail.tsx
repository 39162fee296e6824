import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import type {
  BookingDetailPageData,
  BookingFormErrors,
  BookingFormValues,
  BookingPageBooking,
  MovePageData,
} from "../../../server/owner/booking-detail-page.server";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { BookingMoney } from "./booking-money";
import { OwnerPage } from "./owner-frame";

/**
 * The salon's view of one booking (issue 28, point 4; decision 0040) and
 * its move form. Every action is a plain POST form with the booking's
 * version, so it works without JavaScript and a stale page is refused.
 */

export type BookingFormResult = {
  errors: BookingFormErrors;
  values: BookingFormValues;
  needsConfirmation: boolean;
};

const buttonClass =
  "rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-60";
const secondaryButtonClass =
  "rounded-lg border border-neutral-500 bg-white px-4 py-2 font-bold text-neutral-900 hover:bg-neutral-100 disabled:opacity-60";
const dangerButtonClass =
  "rounded-lg border-2 border-red-700 bg-white px-4 py-2 font-bold text-red-700 hover:bg-red-50 disabled:opacity-60";
const sectionClass = "rounded-lg border border-neutral-300 p-4";
const headingClass = "mb-3 text-lg font-bold";

/** The message after an action, announced and focused once. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 border-b border-neutral-200 py-2 sm:grid-cols-[9rem_1fr]">
      <dt className="font-bold text-neutral-700">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function Facts({ booking }: { booking: BookingPageBooking }) {
  const block = booking.kind === "block";
  return (
    <dl>
      {block ? (
        <Row label="内容">{booking.salonNote || "ブロック"}</Row>
      ) : (
        <Row label="予約番号">{booking.bookingNumber}</Row>
      )}
      <Row label="日時">
        {booking.dateLabel} {booking.timeLabel}
      </Row>
      <Row label="スタッフ">
        {booking.staffName}
        {block ? null : (
          <span className="ml-2 rounded border border-neutral-500 px-1.5 text-sm">
            {booking.staffRequested ? "指名" : "指名なし"}
          </span>
        )}
        {booking.nominationFeeLabel ? (
          <span className="ml-2 text-sm">指名料 {booking.nominationFeeLabel}</span>
        ) : null}
      </Row>
      <Row label="状態">
        {booking.statusLabel}
        {booking.arrivedLabel ? `（来店：${booking.arrivedLabel}）` : null}
      </Row>
      {block ? null : (
        <>
          <Row label="受付">{booking.sourceLabel}</Row>
          <Row label="お客様">
            <p>
              {booking.customer.name || "（お名前なし）"}
              {booking.customer.kana ? `（${booking.customer.kana}）` : null}
            </p>
            {booking.customer.phone ? (
              <p>
                電話：
                <a
                  href={`tel:${booking.customer.phone.replace(/[^\d+]/g, "")}`}
                  className="font-bold text-brand-700 underline underline-offset-4"
                >
                  {booking.customer.phone}
                </a>
              </p>
            ) : null}
            {booking.customer.email ? <p>メール：{booking.customer.email}</p> : null}
            {booking.customerHref ? (
              <p>
                <Link
                  to={booking.customerHref}
                  className="font-bold text-brand-700 underline underline-offset-4"
                >
                  顧客カルテを見る
                </Link>
              </p>
            ) : null}
          </Row>
          <Row label="メニュー">
            <ul>
              {booking.menus.map((menu) => (
                <li key={menu.name}>
                  {menu.name}（{menu.durationMinutes}分）{menu.priceLabel}
                </li>
              ))}
            </ul>
          </Row>
          {booking.couponTitle ? <Row label="クーポン">{booking.couponTitle}</Row> : null}
          {booking.studentDeclared ? (
            <Row label="学割">学生（予約時に申告。ご来店時に学生証をご確認ください）</Row>
          ) : null}
          <Row label="合計金額">{booking.totalLabel}（税込）</Row>
          <Row label="ご要望">
            <span className="whitespace-pre-wrap">{booking.notes || "なし"}</span>
          </Row>
          {booking.policyLines ? (
            <Row label="お支払い・キャンセル料">
              <p className="text-sm">
                お客様が予約時に同意した内容です（その後の設定変更は影響しません）。
              </p>
              <ul className="list-disc pl-5">
                {booking.policyLines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </Row>
          ) : null}
          {booking.payments && booking.payments.length > 0 ? (
            <Row label="オンライン決済">
              <BookingMoney payments={booking.payments} />
            </Row>
          ) : null}
          {booking.cancellation ? (
            <Row label="キャンセル">
              <p>{booking.cancellation.label}</p>
              {booking.cancellation.message ? (
                <p className="whitespace-pre-wrap">{booking.cancellation.message}</p>
              ) : null}
            </Row>
          ) : null}
        </>
      )}
    </dl>
  );
}

function VersionedForm({
  booking,
  intent,
  children,
  label,
}: {
  booking: BookingPageBooking;
  intent: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" aria-label={label}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={booking.version} />
      {children}
    </Form>
  );
}

export function BookingDetailView({
  data,
  result,
}: {
  data: BookingDetailPageData;
  result: BookingFormResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const { booking } = data;
  const typed = result?.values;
  // The refusal's message field has its own id beside the cancel form's.
  const errors: Record<string, string | undefined> =
    typed?.intent === "refuse" && result?.errors.message
      ? (({ message, ...rest }) => ({ ...rest, refuseMessage: message }))(result.errors)
      : (result?.errors ?? {});
  const base = `/owner/salons/${data.salon.id}/bookings`;
  const title =
    booking.kind === "block" ? `ブロック ${booking.salonNote}` : `予約 ${booking.bookingNumber}`;
  return (
    <OwnerPage title={title}>
      <div className="mt-4 flex flex-col gap-6">
        <p>
          <Link
            to={`${base}?date=${booking.date}`}
            className="font-bold text-brand-700 underline underline-offset-4"
          >
            予約台帳へ戻る
          </Link>
        </p>
        {data.done && !result ? <FocusedNotice>{data.done}</FocusedNotice> : null}
        <ErrorSummary errors={errors} />

        {booking.pending ? (
          <section
            className="rounded-lg border-2 border-amber-700 bg-amber-50 p-4"
            aria-labelledby="approval-heading"
          >
            <h2 id="approval-heading" className={headingClass}>
              仮予約（承認待ち）
            </h2>
            <p>
              ネット予約の仮予約です。この時間は確保されています。承認すると予約が確定し、承認しないとキャンセルになって時間が空きます。どちらもお客様にメールでお知らせします。
            </p>
            {booking.can.approve || booking.can.refuse ? (
              <div className="mt-4 flex flex-col gap-4">
                {booking.can.approve ? (
                  <VersionedForm booking={booking} intent="approve" label="承認する">
                    <button type="submit" className={buttonClass} disabled={busy}>
                      承認する
                    </button>
                  </VersionedForm>
                ) : null}
                {booking.can.refuse ? (
                  <VersionedForm booking={booking} intent="refuse" label="承認しない">
                    <fieldset className="flex flex-col gap-3 rounded-lg border border-neutral-400 bg-white p-4">
                      <legend className="px-1 font-bold">承認しない（お断りする）</legend>
                      <TextAreaField
                        id="refuseMessage"
                        name="message"
                        label="お客様へのメッセージ"
                        hint="500文字まで。お断りのお知らせメールに載ります。"
                        rows={3}
                        defaultValue={typed?.intent === "refuse" ? typed.message : ""}
                        error={errors.refuseMessage}
                        key={`refuse-${booking.version}-${typed?.intent === "refuse" ? typed.message : ""}`}
                      />
                      <div>
                        <button type="submit" className={dangerButtonClass} disabled={busy}>
                          承認しない
                        </button>
                      </div>
                    </fieldset>
                  </VersionedForm>
                ) : null}
              </div>
            ) : null}
          </section>
        ) : null}

        <section className={sectionClass} aria-labelledby="facts-heading">
          <h2 id="facts-heading" className={headingClass}>
            {booking.kind === "block" ? "ブロックの内容" : "予約の内容"}
          </h2>
          <Facts booking={booking} />
        </section>

        {booking.checkout ? (
          <section className={sectionClass} aria-labelledby="checkout-heading">
            <h2 id="checkout-heading" className={headingClass}>
              会計
            </h2>
            <p className="mb-3 text-sm text-neutral-700">
              {booking.checkout.saved
                ? "会計は登録済みです。"
                : "実際にお支払いいただいた金額を登録します。登録すると施術完了になります。"}
            </p>
            <Link to={booking.checkout.href} className={`${buttonClass} inline-block`}>
              {booking.checkout.label}
            </Link>
          </section>
        ) : null}

        {booking.can.arrive ||
        booking.can.complete ||
        booking.can.undo ||
        booking.can.cancel ||
        booking.can.move ||
        booking.can.release ? (
          <section className={sectionClass} aria-labelledby="actions-heading">
            <h2 id="actions-heading" className={headingClass}>
              操作
            </h2>
            <div className="flex flex-wrap gap-3">
              {booking.can.arrive ? (
                <VersionedForm booking={booking} intent="arrived" label="来店">
                  <button type="submit" className={buttonClass} disabled={busy}>
                    来店
                  </button>
                </VersionedForm>
              ) : booking.can.cancel && !booking.arrivedLabel ? (
                <p className="self-center text-sm text-neutral-700">
                  来店は {booking.arriveFrom} から記録できます（開始の少し前から）。
                </p>
              ) : null}
              {booking.can.undo ? (
                <VersionedForm booking={booking} intent="undo" label={booking.can.undo.label}>
                  <input type="hidden" name="undo" value={booking.can.undo.action} />
                  <button
                    type="submit"
                    className={secondaryButtonClass}
                    disabled={busy}
                    aria-describedby="undo-hint"
                  >
                    {booking.can.undo.label}
                  </button>
                  <p id="undo-hint" className="mt-1 text-sm text-neutral-700">
                    記録した日のうちは取り消せます（履歴に残ります）。
                  </p>
                </VersionedForm>
              ) : null}
              {booking.can.complete ? (
                <VersionedForm booking={booking} intent="completed" label="施術完了">
                  <button type="submit" className={buttonClass} disabled={busy}>
                    施術完了
                  </button>
                </VersionedForm>
              ) : null}
              {booking.can.noShow ? (
                <VersionedForm booking={booking} intent="no_show" label="無断キャンセル">
                  <button type="submit" className={dangerButtonClass} disabled={busy}>
                    無断キャンセル
                  </button>
                </VersionedForm>
              ) : booking.can.cancel && !booking.arrivedLabel ? (
                <p className="self-center text-sm text-neutral-700">
                  無断キャンセルは開始時刻（{booking.startTime}）を過ぎると記録できます。
                </p>
              ) : null}
              {booking.can.move ? (
                <Link
                  to={`${base}/${booking.id}/move`}
                  className={`${secondaryButtonClass} inline-block`}
                >
                  日時・スタッフ・メニューを変更
                </Link>
              ) : null}
              {booking.can.release ? (
                <VersionedForm booking={booking} intent="release" label="ブロックの削除">
                  <button type="submit" className={dangerButtonClass} disabled={busy}>
                    削除
                  </button>
                </VersionedForm>
              ) : null}
            </div>

            {booking.can.cancel ? (
              <VersionedForm booking={booking} intent="cancel" label="キャンセルを記録">
                <fieldset className="mt-6 flex flex-col gap-3 rounded-lg border border-neutral-300 p-4">
                  <legend className="px-1 font-bold">キャンセルを記録</legend>
                  <SelectField
                    id="category"
                    name="category"
                    label="キャンセルの理由"
                    required
                    placeholder="選んでください"
                    options={data.cancelCategories}
                    defaultValue={typed?.intent === "cancel" ? typed.category : ""}
                    error={errors.category}
                    key={`category-${booking.version}-${typed?.category ?? ""}`}
                  />
                  <TextAreaField
                    id="message"
                    name="message"
                    label="お客様へのメッセージ"
                    hint="500文字まで。キャンセルのお知らせメールに載ります。"
                    rows={3}
                    defaultValue={typed?.intent === "cancel" ? typed.message : ""}
                    error={errors.message}
                    key={`message-${booking.version}-${typed?.message ?? ""}`}
                  />
                  {booking.policyLines ? (
                    <p className="text-sm">
                      サロン都合のキャンセルは、お支払い済みの金額を全額返金します。お客様都合のキャンセルは、お客様が同意したキャンセルポリシーの期間に入っていればキャンセル料を登録カードに請求します（お支払い済みの予約金は差し引きます）。
                    </p>
                  ) : null}
                  <div>
                    <button type="submit" className={dangerButtonClass} disabled={busy}>
                      この予約をキャンセルする
                    </button>
                  </div>
                </fieldset>
              </VersionedForm>
            ) : null}
          </section>
        ) : null}

        <section className={sectionClass} aria-labelledby="note-heading">
          <h2 id="note-heading" className={headingClass}>
            {booking.kind === "block" ? "ブロックの名前" : "サロンメモ"}
          </h2>
          {booking.can.note ? (
            <Form method="post" aria-label="サロンメモ">
              <input type="hidden" name="intent" value="note" />
              <div className="flex flex-col gap-3">
                <TextAreaField
                  id="note"
                  name="note"
                  label={
                    booking.kind === "block"
                      ? "名前（休憩・研修など）"
                      : "メモ（お客様には見えません）"
                  }
                  hint="1000文字まで。"
                  rows={4}
                  defaultValue={typed?.intent === "note" ? typed.note : booking.salonNote}
                  error={errors.note}
                  key={`note-${booking.salonNote}-${typed?.note ?? ""}`}
                />
                <div>
                  <button type="submit" className={secondaryButtonClass} disabled={busy}>
                    メモを保存
                  </button>
                </div>
              </div>
            </Form>
          ) : (
            <p className="whitespace-pre-wrap">{booking.salonNote || "なし"}</p>
          )}
        </section>

        <section className={sectionClass} aria-labelledby="history-heading">
          <h2 id="history-heading" className={headingClass}>
            履歴
          </h2>
          {booking.history.length === 0 ? (
            <p>履歴はまだありません。</p>
          ) : (
            <ol className="flex flex-col gap-2">
              {booking.history.map((entry) => (
                <li key={entry.id} className="border-b border-neutral-200 pb-2">
                  <p className="text-sm text-neutral-700">
                    {entry.when}・{entry.who}
                  </p>
                  <p>{entry.what}</p>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </OwnerPage>
  );
}

export function BookingMoveView({
  data,
  result,
}: {
  data: MovePageData;
  result: BookingFormResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const { booking } = data;
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const values = { ...data.values, ...(result?.values ?? {}) };
  const chosen = new Set(values.menuIds ?? []);
  const detailHref = `/owner/salons/${data.salon.id}/bookings/${booking.id}`;
  const categories = [...new Set(data.menus.map((menu) => menu.category))];
  const formKey = JSON.stringify(result?.values ?? {});
  return (
    <OwnerPage title={`予約 ${booking.bookingNumber} の変更`}>
      <div className="mt-4 flex max-w-2xl flex-col gap-6">
        <p>
          <Link to={detailHref} className="font-bold text-brand-700 underline underline-offset-4">
            予約の詳細へ戻る
          </Link>
        </p>
        <p>
          いまの予約：{booking.dateLabel} {booking.timeLabel}・{booking.staffName}・
          {booking.menus.map((menu) => menu.name).join("、")}（{booking.customer.name || "お客様"}）
        </p>
        <ErrorSummary errors={errors} />
        {booking.can.move ? (
          <Form method="post" aria-label="予約の変更" key={formKey}>
            <input type="hidden" name="intent" value="move" />
            <input type="hidden" name="version" value={booking.version} />
            <div className="flex flex-col gap-4">
              <TextField
                id="date"
                name="date"
                type="date"
                label="日付"
                required
                defaultValue={values.date}
                error={errors.date}
              />
              <TextField
                id="time"
                name="time"
                type="time"
                label="開始時刻"
                hint="14:00 のように入力してください。"
                required
                step={300}
                defaultValue={values.time}
                error={errors.time}
              />
              <SelectField
                id="staffId"
                name="staffId"
                label="スタッフ"
                required
                options={data.stylists}
                defaultValue={values.staffId}
                error={errors.staffId}
              />
              {booking.staffRequested ? (
                <div className="flex flex-col gap-1">
                  <label className="flex items-start gap-2">
                    <input
                      type="checkbox"
                      name="keepNomination"
                      defaultChecked={values.keepNomination}
                      aria-describedby="keepNomination-hint"
                      className="mt-1 size-5"
                    />
                    指名を引き継ぐ
                  </label>
                  <p id="keepNomination-hint" className="text-sm text-neutral-700">
                    お客様は {booking.staffName}{" "}
                    を指名しています。別のスタッフに変えると指名なしになり、指名料はなくなります。お客様が変更先のスタッフを指名した場合だけチェックしてください（変更先のスタッフの指名料になります）。
                  </p>
                </div>
              ) : null}
              <fieldset
                className="flex flex-col gap-2 rounded-lg border border-neutral-300 p-4"
                aria-describedby={errors.menuIds ? "menuIds-error" : undefined}
              >
                <legend className="px-1 font-bold">メニュー（時間と料金はメニューから）</legend>
                {categories.map((category) => (
                  <div key={category} className="flex flex-col gap-1">
                    <p className="text-sm font-bold text-neutral-700">{category}</p>
                    {data.menus
                      .filter((menu) => menu.category === category)
                      .map((menu) => (
                        <label key={menu.id} className="flex items-start gap-2">
                          <input
                            type="checkbox"
                            name="menuIds"
                            value={menu.id}
                            defaultChecked={chosen.has(menu.id)}
                            className="mt-1 size-5"
                          />
                          <span>{menu.label}</span>
                        </label>
                      ))}
                  </div>
                ))}
                {errors.menuIds ? (
                  <p id="menuIds-error" className="text-sm font-bold text-red-700">
                    {errors.menuIds}
                  </p>
                ) : null}
              </fieldset>
              {result?.needsConfirmation || values.confirmOutsideSchedule ? (
                <div className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3">
                  <label className="flex items-start gap-2 font-bold">
                    <input
                      type="checkbox"
                      name="confirmOutsideSchedule"
                      defaultChecked={values.confirmOutsideSchedule}
                      aria-describedby={
                        errors.confirmOutsideSchedule ? "confirmOutsideSchedule-error" : undefined
                      }
                      className="mt-1 size-5"
                    />
                    このまま移動する（勤務時間外でも予約を入れます）
                  </label>
                  {errors.confirmOutsideSchedule ? (
                    <p
                      id="confirmOutsideSchedule-error"
                      className="mt-1 text-sm font-bold text-amber-900"
                    >
                      {errors.confirmOutsideSchedule}
                    </p>
                  ) : null}
                </div>
              ) : null}
              <div>
                <button type="submit" className={buttonClass} disabled={busy}>
                  変更する
                </button>
              </div>
            </div>
          </Form>
        ) : (
          <p>この予約は変更できません（{booking.statusLabel}）。</p>
        )}
      </div>
    </OwnerPage>
  );
}
