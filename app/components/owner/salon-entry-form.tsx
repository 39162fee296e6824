import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { formatDate, formatYen } from "../../../common/format";
import { isLocalDate } from "../../../common/local-time";
import type {
  EntryKind,
  SalonEntryErrors,
  SalonEntryPageData,
  SalonEntryValues,
} from "../../../server/owner/salon-entry-form.server";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "../form/field";
import { OwnerPage } from "./owner-frame";

const buttonClass =
  "rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-60";
const secondaryButtonClass =
  "rounded-lg border border-neutral-500 px-3 py-2 text-sm font-bold hover:bg-neutral-100";
const fieldsetClass = "flex flex-col gap-3 rounded-lg border border-neutral-300 p-4";
const legendClass = "px-1 font-bold";

const entryLabels: Record<EntryKind, string> = {
  phone: "電話予約",
  walk_in: "来店（飛び込み）",
  block: "ブロック（休憩・打ち合わせ・研修など）",
};
const reasonLabels: Record<string, string> = {
  break: "休憩",
  meeting: "打ち合わせ",
  training: "研修",
  other: "その他",
};

/**
 * /owner/salons/{id}/bookings/new: a phone or walk-in booking, or blocked
 * time. Without JavaScript every part shows and the lookup and the
 * stylist's menus come from GET submits of the same form; with it, the
 * parts that do not apply to the choice hide and the menus follow the stylist.
 */
export function SalonEntryForm({
  data,
  result,
}: {
  data: SalonEntryPageData;
  result: { errors: SalonEntryErrors; values: SalonEntryValues } | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const values = result?.values ?? data.values;
  const [entry, setEntry] = useState<EntryKind>(values.entry);
  const [stylist, setStylist] = useState(values.staff);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // A new answer of the action (or a lookup) brings its own values.
  useEffect(() => {
    setEntry(values.entry);
    setStylist(values.staff);
  }, [values]);
  const showBooking = !hydrated || entry !== "block";
  const showBlock = !hydrated || entry === "block";
  const menus = data.menus.filter(
    (menu) => !stylist || menu.staffIds === null || menu.staffIds.includes(stylist),
  );
  const ticked = new Set(values.menu);
  const showOutside = Boolean(errors.outside) || values.outside;
  const key = result ? `result-${JSON.stringify(result.errors)}` : `initial-${data.lookup.q}`;
  return (
    <OwnerPage title="予約・ブロックの入力">
      <p className="mb-4 text-sm text-neutral-700">
        電話や来店のご予約、スタッフの休憩などのブロックを台帳に入れます。Web予約の受付時間の制限はかかりませんが、ほかの予約やブロックと重なる時間には入れられません。
      </p>
      <Form method="post" noValidate className="flex max-w-2xl flex-col gap-5" key={key}>
        <ErrorSummary errors={errors} />
        <fieldset className={fieldsetClass}>
          <legend className={legendClass}>種類</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {(Object.keys(entryLabels) as EntryKind[]).map((kind) => (
              <label key={kind} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="entry"
                  value={kind}
                  defaultChecked={values.entry === kind}
                  onChange={() => setEntry(kind)}
                  className="size-5"
                />
                {entryLabels[kind]}
              </label>
            ))}
          </div>
        </fieldset>
        <SelectField
          id="entry-staff"
          name="staff"
          label="スタイリスト"
          required
          placeholder="選択してください"
          options={data.stylists.map((member) => ({ value: member.id, label: member.name }))}
          defaultValue={values.staff}
          onChange={(event) => setStylist(event.currentTarget.value)}
          error={errors.staff}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            id="entry-date"
            name="date"
            type="date"
            label="日付"
            required
            hint={isLocalDate(values.date) ? formatDate(values.date) : undefined}
            defaultValue={values.date}
            error={errors.date}
          />
          <TextField
            id="entry-time"
            name="time"
            type="time"
            label="開始時刻"
            required
            step={300}
            defaultValue={values.time}
            error={errors.time}
          />
          {showBlock ? (
            <TextField
              id="entry-end"
              name="end"
              type="time"
              label={hydrated ? "終了時刻" : "終了時刻（ブロックのみ）"}
              step={300}
              defaultValue={values.end}
              error={errors.end}
            />
          ) : null}
        </div>

        {showBooking ? (
          <>
            {hydrated ? null : <h2 className="text-lg font-bold">予約の場合</h2>}
            <fieldset
              className={fieldsetClass}
              aria-describedby={errors.menu ? "entry-menu-error" : undefined}
            >
              <legend className={legendClass}>
                メニュー（{data.maxMenus}つまで。所要時間と料金はメニューから計算します）
              </legend>
              {errors.menu ? (
                <p id="entry-menu-error" className="text-sm font-bold text-red-700">
                  {errors.menu}
                </p>
              ) : null}
              {menus.length > 0 ? (
                <ul className="flex flex-col gap-1">
                  {menus.map((menu) => (
                    <li key={menu.id}>
                      <label className="flex items-center gap-2">
                        <input
                          type="checkbox"
                          name="menu"
                          value={menu.id}
                          defaultChecked={ticked.has(menu.id)}
                          className="size-5 shrink-0"
                        />
                        <span>
                          {menu.name}
                          <span className="ml-2 text-sm text-neutral-700">
                            {menu.durationMinutes}分・{formatYen(menu.price)}
                          </span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm">このスタイリストが担当するメニューはありません。</p>
              )}
              {hydrated ? null : (
                <div>
                  <button
                    type="submit"
                    formMethod="get"
                    formNoValidate
                    className={secondaryButtonClass}
                  >
                    選んだスタイリストのメニューを表示
                  </button>
                </div>
              )}
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="requested"
                  defaultChecked={values.requested}
                  className="size-5"
                />
                指名あり（お客様がこのスタイリストを指名）
              </label>
            </fieldset>

            <fieldset className={fieldsetClass}>
              <legend className={legendClass}>お客様</legend>
              <div className="flex flex-wrap items-end gap-2">
                <div className="flex min-w-56 flex-1 flex-col gap-1">
                  <label htmlFor="entry-q" className="text-sm font-bold">
                    来店歴のあるお客様を電話番号・お名前・フリガナで探す
                  </label>
                  <input
                    id="entry-q"
                    name="q"
                    type="search"
                    maxLength={50}
                    defaultValue={data.lookup.q}
                    className="rounded-lg border border-neutral-400 px-3 py-2"
                  />
                </div>
                <button
                  type="submit"
                  formMethod="get"
                  formNoValidate
                  className={secondaryButtonClass}
                >
                  お客様を検索
                </button>
              </div>
              {errors.customer ? (
                <p className="text-sm font-bold text-red-700">{errors.customer}</p>
              ) : null}
              <ul className="flex flex-col gap-2" aria-label="お客様の選択">
                {data.lookup.results.map((customer) => (
                  <li key={customer.id}>
                    <label className="flex items-start gap-2">
                      <input
                        type="radio"
                        name="customer"
                        value={customer.id}
                        defaultChecked={values.customer === customer.id}
                        className="mt-1 size-5 shrink-0"
                      />
                      <span>
                        <span className="font-bold">この顧客で予約：</span>
                        {customer.name || "（お名前未登録）"}
                        {customer.kana ? `（${customer.kana}）` : ""}
                        <span className="block text-sm text-neutral-700">
                          {customer.phone || "電話番号なし"}
                          {customer.hasAccount ? "・会員" : ""}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
                <li>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="customer"
                      value=""
                      defaultChecked={
                        !data.lookup.results.some((customer) => customer.id === values.customer)
                      }
                      className="size-5"
                    />
                    新しいお客様（下に入力）
                  </label>
                </li>
              </ul>
              {data.lookup.searched && data.lookup.results.length === 0 ? (
                <p className="text-sm" role="status">
                  「{data.lookup.q}
                  」に当てはまるお客様はいません。新しいお客様として入力してください。
                </p>
              ) : null}
              <TextField
                id="entry-name"
                name="name"
                label="氏名"
                autoComplete="off"
                maxLength={50}
                defaultValue={values.name}
                error={errors.name}
              />
              <TextField
                id="entry-kana"
                name="kana"
                label="フリガナ"
                autoComplete="off"
                maxLength={50}
                defaultValue={values.kana}
                error={errors.kana}
              />
              <TextField
                id="entry-phone"
                name="phone"
                type="tel"
                label="電話番号"
                autoComplete="off"
                hint="例：090-1234-5678"
                defaultValue={values.phone}
                error={errors.phone}
              />
              <TextField
                id="entry-email"
                name="email"
                type="email"
                label="メールアドレス（任意）"
                autoComplete="off"
                hint="入力すると、お客様に予約確認メールを送ります。"
                defaultValue={values.email}
                error={errors.email}
              />
            </fieldset>
            <TextAreaField
              id="entry-note"
              name="note"
              label="サロンのメモ（任意・お客様には見えません）"
              rows={3}
              maxLength={500}
              defaultValue={values.note}
              error={errors.note}
            />
          </>
        ) : null}

        {showBlock ? (
          <fieldset className={fieldsetClass}>
            <legend className={legendClass}>
              {hydrated ? "ブロックの内容" : "ブロックの場合（終了時刻も入力）"}
            </legend>
            <SelectField
              id="entry-reason"
              name="reason"
              label="種類"
              options={data.blockReasons.map((reason) => ({
                value: reason,
                label: reasonLabels[reason] ?? reason,
              }))}
              defaultValue={values.reason || "break"}
              error={errors.reason}
            />
            <TextField
              id="entry-text"
              name="text"
              label="内容（任意・50文字まで）"
              maxLength={50}
              defaultValue={values.text}
              error={errors.text}
            />
          </fieldset>
        ) : null}

        {showOutside ? (
          <div className="rounded-lg border-2 border-amber-600 bg-amber-50 p-4">
            <label className="flex items-start gap-2 font-bold">
              <input
                type="checkbox"
                name="outside"
                defaultChecked={values.outside}
                aria-describedby={errors.outside ? "entry-outside-error" : undefined}
                className="mt-1 size-5 shrink-0"
              />
              出勤予定外でも予約する
            </label>
            {errors.outside ? (
              <p id="entry-outside-error" className="mt-2 text-sm">
                {errors.outside}
              </p>
            ) : null}
          </div>
        ) : null}

        <div>
          <button type="submit" disabled={busy} className={buttonClass}>
            {hydrated && entry === "block" ? "ブロックを登録" : "登録する"}
          </button>
        </div>
      </Form>
    </OwnerPage>
  );
}
