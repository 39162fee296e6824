import { Link } from "react-router";
import { formatDate, formatYen } from "../../../common/format";
import { scheduleExceptionLabels } from "../../../common/salon-parts";
import { cellClass, headCellClass, linkClass, tableClass } from "../back-office-ui";
import { TextAreaField, TextField } from "../form/field";
import {
  CheckboxGroup,
  PartList,
  PartRowActions,
  partFormState,
  RowButton,
  SalonPartForm,
} from "./salon-part-form";
import { PatternFields, ScheduleChangeFields, scheduleKindHint } from "./schedule-fields";
import { rangeText } from "./week-grid";

/** What the スタッフ tab's loader gives (server/salon-editor/salon-staff-tab.server.ts staffTab). */
type Member = {
  id: string;
  name: string;
  kana: string;
  role: string;
  /** 指名料 (decision 0047). */
  nominationFee: number;
  active: boolean;
  bookings: number;
};
type MenuChoice = { id: string; name: string; category: string; published: boolean };
type Interval = { weekday: number; startsAt: string; endsAt: string };
type Pattern = {
  key: string;
  validFrom: string | null;
  validUntil: string | null;
  intervals: Interval[];
};
type Exception = {
  id: string;
  date: string;
  kind: "closed" | "hours" | "extra";
  startsAt: string | null;
  endsAt: string | null;
  note: string;
};
export type SelectedStaff = {
  id: string;
  slug: string;
  name: string;
  kana: string;
  role: string;
  profile: string;
  photoUrl: string;
  yearsOfExperience: number;
  nominationFee: number;
  specialties: string[];
  active: boolean;
  today: string;
  upcomingBookings: number;
  menuIds: string[];
  patterns: Pattern[];
  exceptions: Exception[];
};

const KIND_LABELS = scheduleExceptionLabels;

export function StaffList({
  base,
  members,
  version,
  selectedId,
}: {
  base: string;
  members: Member[];
  version: number;
  selectedId: string | null;
}) {
  return (
    <PartList
      part="staff"
      heading={`スタッフ一覧（${members.length}人）`}
      base={base}
      addLabel="スタッフを追加"
      empty="スタッフはまだ登録されていません。下のフォームから追加してください。"
      caption="スタッフ一覧（上から、サロンページと指名なしの割り当てで使う順番）"
      columns={["順番", "名前・役職", "状態", "操作"]}
      rows={members}
      selectedId={selectedId}
      cells={(member, index) => (
        <>
          <td className={cellClass}>{index + 1}</td>
          <td className={cellClass}>
            <Link to={`${base}?staff=${member.id}`} className={linkClass}>
              {member.name}
            </Link>
            <span className="block text-xs text-neutral-700">
              {member.kana}・{member.role}
              {member.nominationFee > 0 ? `・指名料 ${formatYen(member.nominationFee)}` : ""}
            </span>
          </td>
          <td className={cellClass}>
            {member.active ? "在籍" : <span className="font-bold">退職</span>}
            <span className="block text-xs text-neutral-700">予約 {member.bookings}件</span>
          </td>
          <td className={cellClass}>
            <PartRowActions
              part="staff"
              id={member.id}
              target={member.name}
              version={version}
              position={{ index, count: members.length }}
              retire={
                member.active
                  ? { intent: "retire", label: "退職にする" }
                  : { intent: "reinstate", label: "復帰させる" }
              }
              deletable={member.bookings === 0}
            />
          </td>
        </>
      )}
    />
  );
}

const menuOptions = (menus: MenuChoice[]) =>
  menus.map((menu) => ({
    value: menu.id,
    label: (
      <>
        {menu.name}
        <span className="text-xs text-neutral-700">
          （{menu.category}
          {menu.published ? "" : "・掲載終了"}）
        </span>
      </>
    ),
  }));

/** Adds a stylist (member null) or edits one. */
export function StaffForm({
  member,
  menus,
  version,
  actionData,
}: {
  member: SelectedStaff | null;
  menus: MenuChoice[];
  version: number;
  actionData: unknown;
}) {
  const { refusal, errors, value: v, list } = partFormState(actionData, "staff");
  const prefix = member ? "staff-edit" : "staff-new";
  return (
    <SalonPartForm
      headingId={`${prefix}-heading`}
      heading={member ? `${member.name}さんのプロフィール` : "スタッフを追加"}
      refusal={refusal}
      formKey={member?.id ?? "new"}
      version={version}
      hidden={{ staffId: member?.id }}
      intent={member ? "staff-update" : "staff-create"}
      submitLabel={member ? "プロフィールを保存" : "スタッフを追加"}
    >
      <TextField
        id={`${prefix}-name`}
        name="name"
        label="名前"
        required
        autoComplete="off"
        defaultValue={v("name", member?.name)}
        error={errors.name}
      />
      <TextField
        id={`${prefix}-kana`}
        name="kana"
        label="フリガナ"
        required
        autoComplete="off"
        hint="ひらがなかカタカナ（例：ヤマダ ハナコ）"
        defaultValue={v("kana", member?.kana)}
        error={errors.kana}
      />
      <TextField
        id={`${prefix}-role`}
        name="role"
        label="役職"
        required
        autoComplete="off"
        hint="例：スタイリスト、トップスタイリスト、アシスタント"
        defaultValue={v("role", member?.role ?? "スタイリスト")}
        error={errors.role}
      />
      <TextField
        id={`${prefix}-years`}
        name="yearsOfExperience"
        label="経験年数"
        inputMode="numeric"
        autoComplete="off"
        hint="年数を半角数字で（空欄は0年）"
        defaultValue={v("yearsOfExperience", member?.yearsOfExperience)}
        error={errors.yearsOfExperience}
      />
      <TextField
        id={`${prefix}-nomination-fee`}
        name="nominationFee"
        label="指名料（円）"
        inputMode="numeric"
        autoComplete="off"
        hint="お客様がこのスタッフを指名したときに料金に加わります。0〜100,000円（空欄は0円・指名料なし）"
        defaultValue={v("nominationFee", member?.nominationFee)}
        error={errors.nominationFee}
      />
      <TextField
        id={`${prefix}-specialties`}
        name="specialties"
        label="得意なスタイル"
        autoComplete="off"
        hint="読点（、）かカンマで区切って10個まで（例：ショート、透明感カラー）"
        defaultValue={v("specialties", member?.specialties.join("、"))}
        error={errors.specialties}
      />
      <TextAreaField
        id={`${prefix}-profile`}
        name="profile"
        label="プロフィール"
        rows={4}
        defaultValue={v("profile", member?.profile)}
        error={errors.profile}
      />
      <TextField
        id={`${prefix}-photo`}
        name="photoUrl"
        label="写真のURL"
        type="url"
        autoComplete="off"
        hint="https:// で始まるアドレスか、/ で始まるサイト内のパス（空欄は写真なし）"
        defaultValue={v("photoUrl", member?.photoUrl)}
        error={errors.photoUrl}
      />
      <CheckboxGroup
        id={`${prefix}-menus`}
        legend="担当できるメニュー"
        name="menuIds"
        options={menuOptions(menus)}
        checked={list(
          "menuIds",
          member ? member.menuIds : menus.filter((m) => m.published).map((m) => m.id),
        )}
        error={errors.menuIds}
        hint="チェックを外したメニューは、このスタッフを指名して予約できなくなります。"
      />
    </SalonPartForm>
  );
}

/** One weekly pattern: its validity and up to three intervals a weekday (two make a break). */
function ScheduleForm({
  staffId,
  pattern,
  copyFrom,
  version,
  actionData,
}: {
  staffId: string;
  pattern: Pattern | null;
  copyFrom: Pattern | null;
  version: number;
  actionData: unknown;
}) {
  const key = pattern?.key ?? "new";
  const { refusal, errors, value } = partFormState(actionData, `schedule:${key}`);
  const source = pattern ?? copyFrom;
  const prefix = `schedule-${pattern ? pattern.key.replace("~", "to").replace(/[^0-9a-z]/g, "") : "new"}`;
  return (
    <SalonPartForm
      headingId={`${prefix}-heading`}
      heading={pattern ? `勤務パターン（${rangeText(pattern)}）` : "新しい勤務パターン"}
      level={4}
      className="flex flex-col gap-4 rounded-lg border border-neutral-300 p-4"
      refusal={refusal}
      formKey={key}
      version={version}
      hidden={{ staffId, pattern: key }}
      intent="schedule-save"
      submitLabel={pattern ? "この勤務パターンを保存" : "勤務パターンを追加"}
    >
      <PatternFields
        prefix={prefix}
        isNew={!pattern}
        validFrom={pattern?.validFrom}
        validUntil={pattern?.validUntil}
        source={source}
        state={{ value, errors }}
      />
    </SalonPartForm>
  );
}

export function ScheduleSection({
  member,
  version,
  actionData,
}: {
  member: SelectedStaff;
  version: number;
  actionData: unknown;
}) {
  const latest = member.patterns.at(-1) ?? null;
  return (
    <section id="schedules" aria-labelledby="schedules-heading" className="flex flex-col gap-4">
      <h3 id="schedules-heading" className="text-lg font-bold">
        {member.name}さんの勤務パターン（毎週）
      </h3>
      {member.patterns.length === 0 ? (
        <p>勤務パターンがまだありません。登録するまで、このスタッフは予約を受けられません。</p>
      ) : null}
      {member.patterns.map((pattern) => (
        <div key={pattern.key} className="flex flex-col gap-2">
          <ScheduleForm
            staffId={member.id}
            pattern={pattern}
            copyFrom={null}
            version={version}
            actionData={actionData}
          />
          <div>
            <RowButton
              intent="schedule-delete"
              fields={{ staffId: member.id, pattern: pattern.key }}
              version={version}
              label="このパターンを削除"
              target={`勤務パターン ${rangeText(pattern)}`}
              danger
            />
          </div>
        </div>
      ))}
      <ScheduleForm
        staffId={member.id}
        pattern={null}
        copyFrom={latest}
        version={version}
        actionData={actionData}
      />
    </section>
  );
}

export function ExceptionSection({
  member,
  version,
  actionData,
}: {
  member: SelectedStaff;
  version: number;
  actionData: unknown;
}) {
  const { refusal, errors, value } = partFormState(actionData, "exception");
  return (
    <section id="exceptions" aria-labelledby="exceptions-heading" className="flex flex-col gap-4">
      <h3 id="exceptions-heading" className="text-lg font-bold">
        {member.name}さんの休み・臨時の勤務（日付指定）
      </h3>
      {member.exceptions.length === 0 ? (
        <p>今日以降の登録はありません。</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">今日以降の休み・臨時の勤務</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  日付
                </th>
                <th scope="col" className={headCellClass}>
                  内容
                </th>
                <th scope="col" className={headCellClass}>
                  メモ
                </th>
                <th scope="col" className={headCellClass}>
                  操作
                </th>
              </tr>
            </thead>
            <tbody>
              {member.exceptions.map((exception) => (
                <tr key={exception.id}>
                  <td className={cellClass}>{formatDate(exception.date)}</td>
                  <td className={cellClass}>
                    {KIND_LABELS[exception.kind]}
                    {exception.startsAt ? ` ${exception.startsAt}〜${exception.endsAt}` : ""}
                  </td>
                  <td className={cellClass}>{exception.note}</td>
                  <td className={cellClass}>
                    <RowButton
                      intent="exception-delete"
                      fields={{ staffId: member.id, exceptionId: exception.id }}
                      version={version}
                      label="削除"
                      target={`${formatDate(exception.date)} ${KIND_LABELS[exception.kind]}`}
                      danger
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SalonPartForm
        headingId="exception-new-heading"
        heading="休み・臨時の勤務を追加"
        level={4}
        className="flex max-w-2xl flex-col gap-3 rounded-lg border border-neutral-300 p-4"
        refusal={refusal}
        formKey="new"
        version={version}
        hidden={{ staffId: member.id }}
        intent="exception-add"
        submitLabel="追加する"
      >
        <TextField
          id="exception-date"
          name="date"
          type="date"
          label="日付"
          required
          min={member.today}
          defaultValue={value("date", "")}
          error={errors.date}
        />
        <ScheduleChangeFields
          idPrefix="exception"
          state={{ value, errors }}
          noteMax={100}
          kindHint={scheduleKindHint}
        />
      </SalonPartForm>
    </section>
  );
}
