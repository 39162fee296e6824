import { Link } from "react-router";
import {
  type CouponTarget,
  couponLimitNotes,
  couponTargetLabels,
  couponTargets,
} from "../../../common/coupon-eligibility";
import { formatDate, formatYen } from "../../../common/format";
import { couponKindLabels } from "../../../common/salon-parts";
import { cellClass, linkClass } from "../back-office-ui";
import { SelectField, TextAreaField, TextField } from "../form/field";
import { PrepaymentExemptField } from "./prepayment-exempt-field";
import {
  CheckboxGroup,
  PartList,
  PartRowActions,
  partFormState,
  SalonPartForm,
} from "./salon-part-form";

/** What the クーポン tab's loader gives (server/salon-editor/salon-coupons.server.ts couponsTab). */
export type CouponRow = {
  id: string;
  title: string;
  description: string;
  discountKind: "amount" | "percent" | "fixed_price";
  discountValue: number;
  conditions: string;
  /** 新規・再来・全員 and the limits (decision 0087). */
  target: CouponTarget;
  oncePerCustomer: boolean;
  weekdays: number;
  fromMinute: number | null;
  untilMinute: number | null;
  staffId: string | null;
  studentOnly: boolean;
  /** 事前決済の対象外 (decision 0075). */
  prepaymentExempt: boolean;
  validFrom: string;
  validUntil: string | null;
  state: "active" | "scheduled" | "ended";
  menuIds: string[];
  bookings: number;
};
type StylistChoice = { id: string; name: string; active: boolean };
type MenuChoice = { id: string; name: string; category: string; price: number; published: boolean };

const stateLabels = { active: "配布中", scheduled: "開始前", ended: "終了" } as const;

const discountText = (coupon: Pick<CouponRow, "discountKind" | "discountValue">) =>
  coupon.discountKind === "percent"
    ? `${coupon.discountValue}%オフ`
    : coupon.discountKind === "amount"
      ? `${formatYen(coupon.discountValue)}引き`
      : `特別価格 ${formatYen(coupon.discountValue)}`;

const weekdayChoices = ["日", "月", "火", "水", "木", "金", "土"] as const;

/** Minutes after midnight as "10:00" for a time field; "" for none. */
const timeOf = (minutes: number | null | undefined) =>
  minutes === null || minutes === undefined
    ? ""
    : `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

export function CouponList({
  base,
  coupons,
  menus,
  stylists,
  version,
  editingId,
}: {
  base: string;
  coupons: CouponRow[];
  menus: MenuChoice[];
  stylists: StylistChoice[];
  version: number;
  editingId: string | null;
}) {
  const nameOf = new Map(menus.map((m) => [m.id, m.name]));
  const stylistOf = new Map(stylists.map((m) => [m.id, m.name]));
  return (
    <PartList
      part="coupon"
      heading={`クーポン一覧（${coupons.length}件）`}
      base={base}
      addLabel="クーポンを追加"
      empty="クーポンはまだ登録されていません。下のフォームから追加してください。"
      caption="クーポン一覧"
      columns={["クーポン", "対象メニュー", "期間・状態", "操作"]}
      rows={coupons}
      selectedId={editingId}
      cells={(coupon) => (
        <>
          <td className={cellClass}>
            <Link to={`${base}?coupon=${coupon.id}`} className={linkClass}>
              {coupon.title}
            </Link>
            <span className="block text-xs text-neutral-700">
              【{couponTargetLabels[coupon.target]}】{discountText(coupon)}
              {couponLimitNotes(coupon, coupon.staffId ? stylistOf.get(coupon.staffId) : null)
                .map((note) => `・${note}`)
                .join("")}
            </span>
          </td>
          <td className={cellClass}>
            {coupon.menuIds.length === 0
              ? "予約全体"
              : coupon.menuIds.map((id) => nameOf.get(id) ?? "").join("、")}
          </td>
          <td className={cellClass}>
            {formatDate(coupon.validFrom)}〜{coupon.validUntil ? formatDate(coupon.validUntil) : ""}
            <span className="block text-xs font-bold">{stateLabels[coupon.state]}</span>
          </td>
          <td className={cellClass}>
            {/* No order; retiring ends the validity (decision 0018), so an ended one has nothing to retire. */}
            <PartRowActions
              part="coupon"
              id={coupon.id}
              target={coupon.title}
              version={version}
              retire={
                coupon.state !== "ended" ? { intent: "retire", label: "配布を終了" } : undefined
              }
              deletable={coupon.bookings === 0}
            />
          </td>
        </>
      )}
    />
  );
}

export function CouponForm({
  coupon,
  menus,
  stylists,
  today,
  version,
  actionData,
}: {
  coupon: CouponRow | null;
  menus: MenuChoice[];
  stylists: StylistChoice[];
  today: string;
  version: number;
  actionData: unknown;
}) {
  const { refusal, errors, value: v, list } = partFormState(actionData, "coupon");
  const prefix = coupon ? "coupon-edit" : "coupon-new";
  const ticked = (key: "oncePerCustomer" | "studentOnly") =>
    refusal ? refusal.values[key] === "on" : !!coupon?.[key];
  const storedDays = weekdayChoices
    .map((_, day) => String(day))
    .filter((day) => ((coupon?.weekdays ?? 127) & (1 << Number(day))) !== 0);
  const exempt = refusal ? refusal.values.prepaymentExempt === "on" : !!coupon?.prepaymentExempt;
  return (
    <SalonPartForm
      headingId={`${prefix}-heading`}
      heading={coupon ? `「${coupon.title}」を編集` : "クーポンを追加"}
      refusal={refusal}
      formKey={coupon?.id ?? "new"}
      version={version}
      hidden={{ couponId: coupon?.id }}
      intent={coupon ? "coupon-update" : "coupon-create"}
      submitLabel={coupon ? "クーポンを保存" : "クーポンを追加"}
    >
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
        checked={list("menuIds", coupon?.menuIds ?? [])}
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
      <SelectField
        id={`${prefix}-target`}
        name="target"
        label="対象のお客様"
        required
        hint="新規：このサロンに来店したことのない方。再来：来店したことのある方（電話予約のお客様も、電話番号・メールアドレスが一致すれば再来です）。"
        options={couponTargets.map((value) => ({
          value,
          label:
            value === "new"
              ? "新規（初めての方）"
              : value === "returning"
                ? "再来（来店したことのある方）"
                : "全員",
        }))}
        defaultValue={v("target", coupon?.target ?? "all")}
        error={errors.target}
      />
      <CheckboxGroup
        id={`${prefix}-weekdays`}
        legend="利用できる曜日（来店日）"
        name="weekdays"
        options={weekdayChoices.map((label, day) => ({ value: String(day), label }))}
        checked={list("weekdays", storedDays)}
        error={errors.weekdays}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${prefix}-from-time`}
          name="fromTime"
          label="利用できる時間帯（来店時刻）の開始"
          hint="例：10:00。空欄は終日。サロンの所在地の時刻です。"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={v("fromTime", timeOf(coupon?.fromMinute))}
          error={errors.fromTime}
        />
        <TextField
          id={`${prefix}-until-time`}
          name="untilTime"
          label="終了（この時刻より前の来店）"
          hint="例：15:00"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={v("untilTime", timeOf(coupon?.untilMinute))}
          error={errors.untilTime}
        />
      </div>
      <SelectField
        id={`${prefix}-staff`}
        name="staffId"
        label="対象スタイリスト（指名した場合のみ）"
        options={[
          { value: "", label: "指定しない" },
          ...stylists.map((member) => ({
            value: member.id,
            label: member.active ? member.name : `${member.name}（退職）`,
          })),
        ]}
        defaultValue={v("staffId", coupon?.staffId ?? "")}
        error={errors.staffId}
      />
      <label className="flex items-center gap-2 font-bold">
        <input
          type="checkbox"
          name="oncePerCustomer"
          defaultChecked={ticked("oncePerCustomer")}
          className="size-5"
        />
        お一人様1回限り
      </label>
      <label className="flex items-center gap-2 font-bold">
        <input
          type="checkbox"
          name="studentOnly"
          defaultChecked={ticked("studentOnly")}
          className="size-5"
        />
        学割（予約時に学生であることを申告していただきます）
      </label>
      <PrepaymentExemptField defaultChecked={exempt} />
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
    </SalonPartForm>
  );
}
