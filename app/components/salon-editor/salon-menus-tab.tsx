import { Link } from "react-router";
import { formatYen } from "../../../common/format";
import { durationChoices, durationLabel } from "../../../common/salon-parts";
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

/** What the メニュー tab's loader gives (server/salon-editor/salon-menus.server.ts menusTab). */
export type MenuRow = {
  id: string;
  category: string;
  name: string;
  description: string;
  price: number;
  durationMinutes: number;
  /** 事前決済の対象外 (decision 0075). */
  prepaymentExempt: boolean;
  published: boolean;
  staffIds: string[];
  bookings: number;
};
type StaffChoice = { id: string; name: string; active: boolean };

export function MenuList({
  base,
  menus,
  staff,
  version,
  editingId,
}: {
  base: string;
  menus: MenuRow[];
  staff: StaffChoice[];
  version: number;
  editingId: string | null;
}) {
  const nameOf = new Map(staff.map((s) => [s.id, s.name]));
  return (
    <PartList
      part="menu"
      heading={`メニュー一覧（${menus.length}件）`}
      base={base}
      addLabel="メニューを追加"
      empty="メニューはまだ登録されていません。下のフォームから追加してください。"
      caption="メニュー一覧（上から、サロンページに並ぶ順番）"
      columns={["順番", "メニュー", "料金・時間", "担当", "操作"]}
      rows={menus}
      selectedId={editingId}
      cells={(menu, index) => (
        <>
          <td className={cellClass}>{index + 1}</td>
          <td className={cellClass}>
            <Link to={`${base}?menu=${menu.id}`} className={linkClass}>
              {menu.name}
            </Link>
            <span className="block text-xs text-neutral-700">
              {menu.category}
              {menu.published ? "" : "・掲載終了"}
            </span>
          </td>
          <td className={cellClass}>
            {formatYen(menu.price)}
            <span className="block text-xs text-neutral-700">
              {durationLabel(menu.durationMinutes)}
            </span>
          </td>
          <td className={cellClass}>
            {menu.staffIds.length === 0
              ? "全スタッフ"
              : menu.staffIds.map((id) => nameOf.get(id) ?? "").join("、")}
          </td>
          <td className={cellClass}>
            <PartRowActions
              part="menu"
              id={menu.id}
              target={menu.name}
              version={version}
              position={{ index, count: menus.length }}
              retire={
                menu.published
                  ? { intent: "retire", label: "掲載をやめる" }
                  : { intent: "reinstate", label: "再掲載" }
              }
              deletable={menu.bookings === 0}
            />
          </td>
        </>
      )}
    />
  );
}

export function MenuForm({
  menu,
  staff,
  categories,
  version,
  actionData,
}: {
  menu: MenuRow | null;
  staff: StaffChoice[];
  categories: string[];
  version: number;
  actionData: unknown;
}) {
  const { refusal, errors, value: v, list } = partFormState(actionData, "menu");
  const prefix = menu ? "menu-edit" : "menu-new";
  const scope = v("staffScope", menu && menu.staffIds.length > 0 ? "selected" : "all");
  const exempt = refusal ? refusal.values.prepaymentExempt === "on" : !!menu?.prepaymentExempt;
  return (
    <SalonPartForm
      headingId={`${prefix}-heading`}
      heading={menu ? `「${menu.name}」を編集` : "メニューを追加"}
      refusal={refusal}
      formKey={menu?.id ?? "new"}
      version={version}
      hidden={{ menuId: menu?.id }}
      intent={menu ? "menu-update" : "menu-create"}
      submitLabel={menu ? "メニューを保存" : "メニューを追加"}
    >
      <TextField
        id={`${prefix}-category`}
        name="category"
        label="カテゴリ"
        required
        autoComplete="off"
        list={`${prefix}-categories`}
        hint="例：カット、カラー、パーマ、トリートメント"
        defaultValue={v("category", menu?.category)}
        error={errors.category}
      />
      <datalist id={`${prefix}-categories`}>
        {categories.map((category) => (
          <option key={category} value={category} />
        ))}
      </datalist>
      <TextField
        id={`${prefix}-name`}
        name="name"
        label="メニュー名"
        required
        autoComplete="off"
        defaultValue={v("name", menu?.name)}
        error={errors.name}
      />
      <TextField
        id={`${prefix}-price`}
        name="price"
        label="料金（円・税込）"
        required
        inputMode="numeric"
        autoComplete="off"
        hint="半角数字（例：5500）"
        defaultValue={v("price", menu?.price)}
        error={errors.price}
      />
      <SelectField
        id={`${prefix}-duration`}
        name="durationMinutes"
        label="所要時間"
        required
        placeholder="選択してください"
        options={durationChoices.map((minutes) => ({
          value: String(minutes),
          label: durationLabel(minutes),
        }))}
        defaultValue={v("durationMinutes", menu?.durationMinutes ?? 60)}
        error={errors.durationMinutes}
      />
      <TextAreaField
        id={`${prefix}-description`}
        name="description"
        label="説明"
        rows={3}
        defaultValue={v("description", menu?.description)}
        error={errors.description}
      />
      <PrepaymentExemptField defaultChecked={exempt} />
      <fieldset className="flex flex-col gap-2">
        <legend className="font-bold">担当できるスタッフ</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="staffScope"
            value="all"
            defaultChecked={scope !== "selected"}
            className="size-5"
          />
          全スタッフ（これから加わるスタッフも含む）
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="staffScope"
            value="selected"
            defaultChecked={scope === "selected"}
            className="size-5"
          />
          選んだスタッフだけ
        </label>
      </fieldset>
      <CheckboxGroup
        id={`${prefix}-staff`}
        legend="スタッフを選ぶ（「選んだスタッフだけ」のとき）"
        name="staffIds"
        options={staff.map((member) => ({
          value: member.id,
          label: member.active ? member.name : `${member.name}（退職）`,
        }))}
        checked={list("staffIds", menu?.staffIds ?? [])}
        error={errors.staffIds}
      />
    </SalonPartForm>
  );
}
