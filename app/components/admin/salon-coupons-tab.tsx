import { Form, Link } from "react-router";
import { couponKindLabels } from "../../../common/salon-parts";
import { formatDate, formatYen } from "../../lib/format";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "../form/field";
import { buttonClass, cellClass, headCellClass, linkClass, tableClass } from "./admin-frame";
import {
  CheckboxGroup,
  listOf,
  RowButton,
  refusalFor,
  typedValue,
  VersionField,
} from "./salon-part-form";

/** What the クーポン tab's loader gives (server/admin/salon-coupons.server.ts couponsTab). */
export type CouponRow = {
  id: string;
  title: string;
  description: string;
  discountKind: "amount" | "percent" | "fixed_price";
  discountValue: number;
  conditions: string;
  newCustomersOnly: boolean;
  validFrom: string;
  validUntil: string | null;
  state: "active" | "scheduled" | "ended";
  menuIds: string[];
  bookings: number;
};
type MenuChoice = { id: string; name: string; category: string; price: number; published: boolean };

const stateLabels = { active: "配布中", scheduled: "開始前", ended: "終了" } as const;

const discountText = (coupon: Pick<CouponRow, "discountKind" | "discountValue">) =>
  coupon.discountKind === "percent"
    ? `${coupon.discountValue}%オフ`
    : coupon.discountKind === "amount"
      ? `${formatYen(coupon.discountValue)}引き`
      : `特別価格 ${formatYen(coupon.discountValue)}`;

export function CouponList({
  base,
  coupons,
  menus,
  version,
  editingId,
}: {
  base: string;
  coupons: CouponRow[];
  menus: MenuChoice[];
  version: number;
  editingId: string | null;
}) {
  const nameOf = new Map(menus.map((m) => [m.id, m.name]));
  return (
    <section aria-labelledby="coupon-list-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="coupon-list-heading" className="text-xl font-bold">
          クーポン一覧（{coupons.length}件）
        </h2>
        <Link to={base} className={linkClass}>
          クーポンを追加
        </Link>
      </div>
      {coupons.length === 0 ? (
        <p>クーポンはまだ登録されていません。下のフォームから追加してください。</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">クーポン一覧</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  クーポン
                </th>
                <th scope="col" className={headCellClass}>
                  対象メニュー
                </th>
                <th scope="col" className={headCellClass}>
                  期間・状態
                </th>
                <th scope="col" className={headCellClass}>
                  操作
                </th>
              </tr>
            </thead>
            <tbody>
              {coupons.map((coupon) => (
                <tr
                  key={coupon.id}
                  id={`coupon-${coupon.id}`}
                  aria-current={coupon.id === editingId ? "true" : undefined}
                  className={coupon.id === editingId ? "bg-brand-50" : undefined}
                >
                  <td className={cellClass}>
                    <Link to={`${base}?coupon=${coupon.id}`} className={linkClass}>
                      {coupon.title}
                    </Link>
                    <span className="block text-xs text-neutral-700">
                      {discountText(coupon)}
                      {coupon.newCustomersOnly ? "・新規のみ" : ""}
                    </span>
                  </td>
                  <td className={cellClass}>
                    {coupon.menuIds.length === 0
                      ? "予約全体"
                      : coupon.menuIds.map((id) => nameOf.get(id) ?? "").join("、")}
                  </td>
                  <td className={cellClass}>
                    {formatDate(coupon.validFrom)}〜
                    {coupon.validUntil ? formatDate(coupon.validUntil) : ""}
                    <span className="block text-xs font-bold">{stateLabels[coupon.state]}</span>
                  </td>
                  <td className={cellClass}>
                    <div className="flex flex-wrap gap-1">
                      {coupon.state !== "ended" ? (
                        <RowButton
                          intent="coupon-retire"
                          fields={{ couponId: coupon.id }}
                          version={version}
                          label="配布を終了"
                          target={coupon.title}
                        />
                      ) : null}
                      {coupon.bookings === 0 ? (
                        <RowButton
                          intent="coupon-delete"
                          fields={{ couponId: coupon.id }}
                          version={version}
                          label="削除"
                          target={coupon.title}
                          danger
                        />
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function CouponForm({
  coupon,
  menus,
  today,
  version,
  actionData,
}: {
  coupon: CouponRow | null;
  menus: MenuChoice[];
  today: string;
  version: number;
  actionData: unknown;
}) {
  const refusal = refusalFor(actionData, "coupon");
  const errors = refusal?.errors ?? {};
  const v = (key: string, stored: string | number | null | undefined) =>
    typedValue(refusal, key, stored);
  const prefix = coupon ? "coupon-edit" : "coupon-new";
  const newOnly = refusal ? refusal.values.newCustomersOnly === "on" : !!coupon?.newCustomersOnly;
  return (
    <Form
      method="post"
      noValidate
      className="flex max-w-2xl flex-col gap-4"
      aria-labelledby={`${prefix}-heading`}
      key={refusal ? "refused" : (coupon?.id ?? "new")}
    >
      <h2 id={`${prefix}-heading`} className="text-xl font-bold">
        {coupon ? `「${coupon.title}」を編集` : "クーポンを追加"}
      </h2>
      <ErrorSummary errors={errors} />
      <VersionField version={version} />
      {coupon ? <input type="hidden" name="couponId" value={coupon.id} /> : null}
      <TextField
        id={`${prefix}-title`}
        name="title"
        label="クーポン名"
        required
        autoComplete="off"
        hint="例：【新規】カット＋カラー 20%オフ"
        defaultValue={v("title", coupon?.title)}
        error={errors.title}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          id={`${prefix}-kind`}
          name="discountKind"
          label="割引の種類"
          required
          options={Object.entries(couponKindLabels).map(([value, label]) => ({ value, label }))}
          defaultValue={v("discountKind", coupon?.discountKind ?? "amount")}
          error={errors.discountKind}
        />
        <TextField
          id={`${prefix}-value`}
          name="discountValue"
          label="割引の値（円または%）"
          required
          inputMode="numeric"
          autoComplete="off"
          hint="円引き・特別価格は円、%オフは1〜100"
          defaultValue={v("discountValue", coupon?.discountValue)}
          error={errors.discountValue}
        />
      </div>
      <CheckboxGroup
        id={`${prefix}-menus`}
        legend="対象メニュー"
        name="menuIds"
        hint="選ばない場合は予約全体が対象です。特別価格は、選んだメニューの合計がその価格になります。"
        options={menus.map((menu) => ({
          value: menu.id,
          label: `${menu.name}（${formatYen(menu.price)}${menu.published ? "" : "・掲載終了"}）`,
        }))}
        checked={listOf(refusal, "menuIds", coupon?.menuIds ?? [])}
        error={errors.menuIds}
      />
      <TextAreaField
        id={`${prefix}-conditions`}
        name="conditions"
        label="利用条件"
        rows={2}
        hint="例：平日限定、ご来店2回目以降の方"
        defaultValue={v("conditions", coupon?.conditions)}
        error={errors.conditions}
      />
      <label className="flex items-center gap-2 font-bold">
        <input
          type="checkbox"
          name="newCustomersOnly"
          defaultChecked={newOnly}
          className="size-5"
        />
        新規のお客様のみ
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${prefix}-from`}
          name="validFrom"
          type="date"
          label="開始日"
          required
          defaultValue={v("validFrom", coupon?.validFrom ?? today)}
          error={errors.validFrom}
        />
        <TextField
          id={`${prefix}-until`}
          name="validUntil"
          type="date"
          label="終了日"
          hint="空欄は期限なし"
          defaultValue={v("validUntil", coupon?.validUntil)}
          error={errors.validUntil}
        />
      </div>
      <TextAreaField
        id={`${prefix}-description`}
        name="description"
        label="説明"
        rows={3}
        defaultValue={v("description", coupon?.description)}
        error={errors.description}
      />
      <button
        type="submit"
        name="intent"
        value={coupon ? "coupon-update" : "coupon-create"}
        className={buttonClass}
      >
        {coupon ? "クーポンを保存" : "クーポンを追加"}
      </button>
    </Form>
  );
}
