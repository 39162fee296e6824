import { Form, Link } from "react-router";
import { durationChoices, durationLabel } from "../../../common/salon-parts";
import { formatYen } from "../../lib/format";
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

/** What the メニュー tab's loader gives (server/admin/salon-menus.server.ts menusTab). */
export type MenuRow = {
  id: string;
  category: string;
  name: string;
  description: string;
  price: number;
  durationMinutes: number;
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
    <section aria-labelledby="menu-list-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="menu-list-heading" className="text-xl font-bold">
          メニュー一覧（{menus.length}件）
        </h2>
        <Link to={base} className={linkClass}>
          メニューを追加
        </Link>
      </div>
      {menus.length === 0 ? (
        <p>メニューはまだ登録されていません。下のフォームから追加してください。</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">メニュー一覧（上から、サロンページに並ぶ順番）</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  順番
                </th>
                <th scope="col" className={headCellClass}>
                  メニュー
                </th>
                <th scope="col" className={headCellClass}>
                  料金・時間
                </th>
                <th scope="col" className={headCellClass}>
                  担当
                </th>
                <th scope="col" className={headCellClass}>
                  操作
                </th>
              </tr>
            </thead>
            <tbody>
              {menus.map((menu, index) => (
                <tr
                  key={menu.id}
                  id={`menu-${menu.id}`}
                  aria-current={menu.id === editingId ? "true" : undefined}
                  className={menu.id === editingId ? "bg-brand-50" : undefined}
                >
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
                    <div className="flex flex-wrap gap-1">
                      <RowButton
                        intent="menu-up"
                        fields={{ menuId: menu.id }}
                        version={version}
                        label="上へ"
                        target={menu.name}
                        disabled={index === 0}
                      />
                      <RowButton
                        intent="menu-down"
                        fields={{ menuId: menu.id }}
                        version={version}
                        label="下へ"
                        target={menu.name}
                        disabled={index === menus.length - 1}
                      />
                      {menu.published ? (
                        <RowButton
                          intent="menu-retire"
                          fields={{ menuId: menu.id }}
                          version={version}
                          label="掲載をやめる"
                          target={menu.name}
                        />
                      ) : (
                        <RowButton
                          intent="menu-reinstate"
                          fields={{ menuId: menu.id }}
                          version={version}
                          label="再掲載"
                          target={menu.name}
                        />
                      )}
                      {menu.bookings === 0 ? (
                        <RowButton
                          intent="menu-delete"
                          fields={{ menuId: menu.id }}
                          version={version}
                          label="削除"
                          target={menu.name}
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
  const refusal = refusalFor(actionData, "menu");
  const errors = refusal?.errors ?? {};
  const v = (key: string, stored: string | number | null | undefined) =>
    typedValue(refusal, key, stored);
  const prefix = menu ? "menu-edit" : "menu-new";
  const scope = v("staffScope", menu && menu.staffIds.length > 0 ? "selected" : "all");
  return (
    <Form
      method="post"
      noValidate
      className="flex max-w-2xl flex-col gap-4"
      aria-labelledby={`${prefix}-heading`}
      key={refusal ? "refused" : (menu?.id ?? "new")}
    >
      <h2 id={`${prefix}-heading`} className="text-xl font-bold">
        {menu ? `「${menu.name}」を編集` : "メニューを追加"}
      </h2>
      <ErrorSummary errors={errors} />
      <VersionField version={version} />
      {menu ? <input type="hidden" name="menuId" value={menu.id} /> : null}
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
        checked={listOf(refusal, "staffIds", menu?.staffIds ?? [])}
        error={errors.staffIds}
      />
      <button
        type="submit"
        name="intent"
        value={menu ? "menu-update" : "menu-create"}
        className={buttonClass}
      >
        {menu ? "メニューを保存" : "メニューを追加"}
      </button>
    </Form>
  );
}
