import { type MouseEvent, type ReactNode, useId, useState } from "react";
import { Form } from "react-router";
import { genreLabels, salonGenres } from "../../../common/genres";
import type { EditorDoorKind } from "../../../common/salon-editor-door";
import {
  closureField,
  hoursField,
  INTERVALS_PER_DAY,
  WEEKDAYS,
  weekdayLabels,
} from "../../../common/salon-form-fields";
import type { SalonFormOptions } from "../../../server/salon-editor/salon-basic-info-read.server";
import type { SalonFormValues } from "../../../server/salon-editor/salon-form";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "../form/field";
import { BookingRulesFields } from "./booking-rules-fields";

/**
 * The 基本情報 form of the salon editor (add and edit). Uncontrolled inputs
 * with the server's values as defaults: a failed submit comes back with
 * everything typed. Works without JavaScript; with it, 住所を検索 asks
 * /api/admin/postal-codes instead of submitting the form.
 */

/** Opening intervals per weekday: two, or as many as a stored weekday has (at most four). */
const intervalSlots = Array.from({ length: INTERVALS_PER_DAY }, (_, k) => `slot-${k}`);
const slotsIn = (fields: Record<string, string>) =>
  Math.max(
    2,
    ...WEEKDAYS.flatMap((weekday) =>
      intervalSlots.map((_, k) => (fields[hoursField(weekday, k, "opens")] ? k + 1 : 0)),
    ),
  );

const inputClass = (error?: string) =>
  `rounded-lg border px-2 py-1.5 ${error ? "border-red-700 bg-red-50" : "border-neutral-400"}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-neutral-300 p-4">
      <legend className="px-1 text-lg font-bold">{title}</legend>
      {children}
    </fieldset>
  );
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="text-sm font-bold text-red-700">
      {error}
    </p>
  ) : null;
}

type Props = {
  values: SalonFormValues;
  errors: Record<string, string | undefined>;
  options: SalonFormOptions;
  version?: number;
  submitLabel: string;
  busy: boolean;
  /** The notice of a postal-code lookup done by the server (no JavaScript). */
  notice?: string;
  /**
   * The owner door (decision 0047) hides what only an administrator changes
   * (URL name, owners) and looks postal codes up by submitting the form
   * (the lookup API is the admin area's).
   */
  door?: EditorDoorKind;
};

export function SalonForm({
  values,
  errors,
  options,
  version,
  submitLabel,
  busy,
  notice,
  door = "admin",
}: Props) {
  const f = values.fields;
  const uid = useId();
  const [lookupMessage, setLookupMessage] = useState(notice ?? "");
  const [lookupError, setLookupError] = useState<string | undefined>(errors.postalCode);

  // With JavaScript the lookup fills the fields in place; without it, the
  // button submits the form with intent=lookup and the server fills them.
  async function lookup(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    if (!form || door !== "admin") return;
    event.preventDefault();
    const postal = form.elements.namedItem("postalCode") as HTMLInputElement | null;
    const code = (postal?.value ?? "").normalize("NFKC").replace(/[^0-9]/g, "");
    if (code.length !== 7) {
      setLookupError("郵便番号は7桁の数字で入力してください（例：150-0001）。");
      setLookupMessage("");
      return;
    }
    try {
      const response = await fetch(`/api/admin/postal-codes/${code}`, {
        headers: { Accept: "application/json" },
      });
      const body = await response.json();
      if (!response.ok) {
        setLookupError(body?.error?.message ?? "この郵便番号の住所は見つかりませんでした。");
        setLookupMessage("");
        return;
      }
      const address = body.data as {
        postalCode: string;
        prefectureCode: number;
        prefecture: string;
        city: string;
        town: string;
      };
      const head = `${address.city}${address.town}`;
      const prefecture = form.elements.namedItem("prefectureCode") as HTMLSelectElement | null;
      const line = form.elements.namedItem("addressLine") as HTMLInputElement | null;
      if (postal) postal.value = address.postalCode;
      if (prefecture) prefecture.value = String(address.prefectureCode);
      if (line && !line.value.startsWith(head)) line.value = head;
      setLookupError(undefined);
      setLookupMessage(
        `${address.prefecture}${head}を入力しました。番地と建物名を続けて入力してください。`,
      );
    } catch {
      setLookupError("住所を検索できませんでした。もう一度お試しください。");
    }
  }

  const ownersById = new Map(options.owners.map((owner) => [owner.id, owner]));
  const otherOwners = options.owners.filter((owner) => !values.ownerIds.includes(owner.id));
  const areasByPrefecture = options.areas;
  const stationsByArea = new Map<string, { id: string; name: string }[]>();
  for (const station of options.stations) {
    const list = stationsByArea.get(station.areaId) ?? [];
    list.push(station);
    stationsByArea.set(station.areaId, list);
  }
  const postalError = lookupError ?? errors.postalCode;
  const slots = slotsIn(f);

  return (
    <Form method="post" noValidate className="flex flex-col gap-6">
      {/* Enter in a text field saves (the first submit button is the default one), not 住所を検索. */}
      <button
        type="submit"
        name="intent"
        value="save"
        tabIndex={-1}
        aria-hidden="true"
        className="sr-only"
      >
        {submitLabel}
      </button>
      <ErrorSummary errors={errors} />
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      <input type="hidden" name="closureRows" value={values.closureRows} />

      <Section title="サロンの基本情報">
        <TextField
          id="salon-name"
          name="name"
          label="サロン名"
          required
          maxLength={100}
          defaultValue={f.name}
          error={errors.name}
        />
        <TextField
          id="salon-kana"
          name="nameKana"
          label="サロン名（フリガナ）"
          required
          maxLength={100}
          hint="例：ヘアサロン サクラ"
          defaultValue={f.nameKana}
          error={errors.nameKana}
        />
        {door === "admin" ? (
          <TextField
            id="salon-slug"
            name="slug"
            label="URL名（スラッグ）"
            required
            maxLength={80}
            hint="サロンページのURL（/salons/URL名）になります。半角英小文字・数字・ハイフン。公開中に変えると、古いURLは新しいURLへ転送されます。"
            defaultValue={f.slug}
            error={errors.slug}
          />
        ) : null}
        <SelectField
          id="salon-genre"
          name="genre"
          label="ジャンル"
          required
          defaultValue={f.genre}
          error={errors.genre}
          options={salonGenres.map((genre) => ({ value: genre, label: genreLabels[genre] }))}
        />
        <TextField
          id="salon-catch"
          name="catchCopy"
          label="キャッチコピー"
          maxLength={100}
          defaultValue={f.catchCopy}
          error={errors.catchCopy}
        />
        <TextAreaField
          id="salon-description"
          name="description"
          label="紹介文"
          rows={5}
          maxLength={2000}
          defaultValue={f.description}
          error={errors.description}
        />
      </Section>

      <Section title="所在地・連絡先">
        <div className="flex flex-col gap-1">
          <label htmlFor="salon-postal" className="font-bold">
            郵便番号
            <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">必須</span>
          </label>
          <p id="salon-postal-hint" className="text-sm text-neutral-700">
            例：150-0001。「住所を検索」で都道府県と市区町村・町域を入力します。
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id="salon-postal"
              name="postalCode"
              inputMode="numeric"
              autoComplete="off"
              maxLength={10}
              defaultValue={f.postalCode}
              aria-invalid={postalError ? true : undefined}
              aria-describedby={`salon-postal-hint${postalError ? " salon-postal-error" : ""}`}
              className={`w-40 ${inputClass(postalError)}`}
            />
            <button
              type="submit"
              name="intent"
              value="lookup"
              formNoValidate
              onClick={lookup}
              className={secondaryButtonClass}
            >
              住所を検索
            </button>
          </div>
          <FieldError id="salon-postal-error" error={postalError} />
          <p role="status" className="text-sm">
            {lookupMessage}
          </p>
        </div>
        <SelectField
          id="salon-prefecture"
          name="prefectureCode"
          label="都道府県"
          required
          placeholder="選択してください"
          defaultValue={f.prefectureCode}
          error={errors.prefectureCode}
          options={options.prefectures.map((p) => ({ value: String(p.code), label: p.name }))}
        />
        <TextField
          id="salon-address"
          name="addressLine"
          label="市区町村・番地・建物名"
          maxLength={200}
          hint="公開には番地までの住所が必要です。例：渋谷区神宮前1-2-3 サクラビル2F"
          defaultValue={f.addressLine}
          error={errors.addressLine}
        />
        <TextField
          id="salon-access"
          name="access"
          label="アクセス"
          maxLength={200}
          hint="例：JR山手線 渋谷駅 ハチ公口より徒歩5分"
          defaultValue={f.access}
          error={errors.access}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="salon-area"
            name="areaId"
            label="エリア"
            required
            placeholder="選択してください"
            defaultValue={f.areaId}
            error={errors.areaId}
            options={areasByPrefecture.map((area) => ({ value: area.id, label: area.name }))}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="salon-station" className="font-bold">
              最寄り駅
            </label>
            <select
              id="salon-station"
              name="stationId"
              defaultValue={f.stationId}
              aria-invalid={errors.stationId ? true : undefined}
              aria-describedby={errors.stationId ? "salon-station-error" : undefined}
              className={`w-full ${inputClass(errors.stationId)}`}
            >
              <option value="">なし</option>
              {options.areas.map((area) => {
                const list = stationsByArea.get(area.id);
                return list ? (
                  <optgroup key={area.id} label={area.name}>
                    {list.map((station) => (
                      <option key={station.id} value={station.id}>
                        {station.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null;
              })}
            </select>
            <FieldError id="salon-station-error" error={errors.stationId} />
          </div>
          <TextField
            id="salon-latitude"
            name="latitude"
            label="緯度"
            required
            inputMode="decimal"
            hint="例：35.6702（日本国内：20〜46）"
            defaultValue={f.latitude}
            error={errors.latitude}
          />
          <TextField
            id="salon-longitude"
            name="longitude"
            label="経度"
            required
            inputMode="decimal"
            hint="例：139.7027（日本国内：122〜154）"
            defaultValue={f.longitude}
            error={errors.longitude}
          />
        </div>
        <TextField
          id="salon-phone"
          name="phone"
          type="tel"
          label="電話番号"
          maxLength={20}
          hint="例：03-1234-5678"
          defaultValue={f.phone}
          error={errors.phone}
        />
      </Section>

      <Section title="営業時間">
        <p className="text-sm">
          曜日ごとに開店・閉店時刻を入力します（昼休みがある日は2つ目の時間帯も）。空欄の曜日は定休日になります。
        </p>
        <div className="relative overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">曜日ごとの営業時間</caption>
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1">
                  曜日
                </th>
                {intervalSlots.slice(0, slots).map((slot, k) => (
                  <th key={slot} scope="col" className="px-2 py-1">
                    時間帯{k + 1}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {WEEKDAYS.map((weekday) => {
                const error = intervalSlots
                  .map((_, k) => errors[hoursField(weekday, k, "opens")])
                  .find(Boolean);
                const errorId = `${uid}-hours-${weekday}-error`;
                return (
                  <tr key={weekday} className="border-t border-neutral-200">
                    <th scope="row" className="px-2 py-2 font-bold">
                      {weekdayLabels[weekday]}
                      <FieldError id={errorId} error={error} />
                    </th>
                    {intervalSlots.slice(0, slots).map((slot, k) => (
                      <td key={slot} className="px-2 py-2">
                        <span className="flex flex-wrap items-center gap-1">
                          {(["opens", "closes"] as const).map((end) => {
                            const name = hoursField(weekday, k, end);
                            const label = `${weekdayLabels[weekday]} 時間帯${k + 1}の${end === "opens" ? "開店" : "閉店"}`;
                            return (
                              <span key={end} className="flex items-center gap-1">
                                {end === "closes" ? <span aria-hidden="true">〜</span> : null}
                                <input
                                  type="time"
                                  name={name}
                                  aria-label={label}
                                  defaultValue={f[name]}
                                  aria-invalid={error ? true : undefined}
                                  aria-describedby={error ? errorId : undefined}
                                  className={inputClass(error)}
                                />
                              </span>
                            );
                          })}
                        </span>
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title="定休日・臨時休業">
        <TextField
          id="salon-holiday-note"
          name="holidayNote"
          label="定休日の補足"
          maxLength={200}
          hint="例：毎週火曜日・第3月曜日（営業時間が空欄の曜日は自動で定休日になります）"
          defaultValue={f.holidayNote}
          error={errors.holidayNote}
        />
        <div className="flex flex-col gap-2">
          <p className="font-bold" id={`${uid}-closures`}>
            臨時休業日（今日以降）
          </p>
          <FieldError id={`${uid}-closures-error`} error={errors.closures} />
          <ul className="flex flex-col gap-2" aria-labelledby={`${uid}-closures`}>
            {Array.from({ length: values.closureRows }, (_, i) => {
              const dateName = closureField(i, "date");
              const error = errors[dateName];
              return (
                <li key={dateName} className="flex flex-wrap items-center gap-2">
                  <input
                    type="date"
                    name={dateName}
                    aria-label={`臨時休業日${i + 1}の日付`}
                    defaultValue={f[dateName]}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${uid}-${dateName}-error` : undefined}
                    className={inputClass(error)}
                  />
                  <input
                    type="text"
                    name={closureField(i, "note")}
                    aria-label={`臨時休業日${i + 1}のメモ`}
                    placeholder="例：年末年始休業"
                    maxLength={100}
                    defaultValue={f[closureField(i, "note")]}
                    className={`min-w-48 flex-1 ${inputClass()}`}
                  />
                  <FieldError id={`${uid}-${dateName}-error`} error={error} />
                </li>
              );
            })}
          </ul>
          <p className="text-sm text-neutral-700">
            日付を空にして保存すると、その臨時休業日は取り消されます。
          </p>
        </div>
      </Section>

      <Section title="予約の設定">
        {door === "admin" ? (
          <BookingRulesFields values={f} errors={errors} />
        ) : (
          <p>
            予約の受付ルール（時間の間隔、締切、キャンセル期限、承認など）は「設定」で変更します。
          </p>
        )}
      </Section>

      <Section title="特徴">
        <FieldError id={`${uid}-features-error`} error={errors.features} />
        <ul className="grid gap-2 sm:grid-cols-2">
          {options.features.map((feature) => (
            <li key={feature.slug}>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="features"
                  value={feature.slug}
                  defaultChecked={values.features.includes(feature.slug)}
                  className="size-5"
                />
                {feature.name}
              </label>
            </li>
          ))}
        </ul>
      </Section>

      {door === "admin" ? (
        <Section title="オーナー">
          <FieldError id={`${uid}-owners-error`} error={errors.ownerIds} />
          {values.ownerIds.length > 0 ? (
            <ul className="flex flex-col gap-1" aria-label="このサロンのオーナー">
              {values.ownerIds.map((id) => {
                const owner = ownersById.get(id);
                return (
                  <li key={id}>
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name="ownerIds"
                        value={id}
                        defaultChecked
                        className="size-5"
                      />
                      {owner ? `${owner.name}（${owner.email}）` : id}
                    </label>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-sm">オーナーはまだいません。</p>
          )}
          <p className="text-sm text-neutral-700">
            チェックを外して保存すると、そのオーナーの担当から外れます。
          </p>
          <SelectField
            id="salon-add-owner"
            name="addOwnerId"
            label="オーナーを追加"
            placeholder="追加しない"
            defaultValue={f.addOwnerId ?? ""}
            error={errors.addOwnerId}
            options={otherOwners.map((owner) => ({
              value: owner.id,
              label: `${owner.name}（${owner.email}）`,
            }))}
          />
        </Section>
      ) : null}

      <div>
        <button type="submit" name="intent" value="save" disabled={busy} className={buttonClass}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}
