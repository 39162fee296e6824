import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { formatYen } from "../../../common/format";
import { genreLabels } from "../../../common/genres";
import type { SearchErrors, SearchQuery, SearchTyped } from "../../../common/search.schema";
import { priceChoices, ratingChoices, sortLabels } from "../../../common/search-labels";
import { searchSorts, withoutEmptyParams } from "../../../common/search-query";
import type { SearchOptions } from "../../../server/salons/search-page";

const control = "w-full rounded border border-neutral-400 bg-white px-3 py-2";

/**
 * The search conditions as a plain GET form: it works before JavaScript
 * loads, and afterwards React Router submits it as a client navigation,
 * leaving out the empty fields (the server redirects such URLs too, for
 * the form before JavaScript). Our own messages replace the browser's
 * validation (noValidate): `min` only guides the date picker.
 */
export type SearchFormProps = {
  query: SearchQuery;
  errors: SearchErrors;
  typed: SearchTyped;
  today: string;
  options: SearchOptions;
  /** Called with the form's non-empty fields whenever a control changes (the phone dialog's count). */
  onFieldsChange?: (params: URLSearchParams) => void;
  /** Called after the form started its search (the phone dialog closes). */
  onSearch?: () => void;
  submitLabel?: string;
};

export function SearchForm({
  query,
  errors,
  typed,
  today,
  options,
  onFieldsChange,
  onSearch,
  submitLabel = "この条件で検索",
}: SearchFormProps) {
  const submit = useSubmit();
  // The area list follows the chosen prefecture: at once with JavaScript,
  // after the search without (the server lists only that prefecture's areas).
  const [prefecture, setPrefecture] = useState(query.pref ?? "");
  const areas = prefecture
    ? options.areas.filter((area) => area.prefectureSlug === prefecture)
    : options.areas;
  const areaGroups = new Map<string, typeof areas>();
  for (const area of areas) {
    areaGroups.set(area.prefectureName, [...(areaGroups.get(area.prefectureName) ?? []), area]);
  }
  return (
    <Form
      method="get"
      action="/salons/search"
      role="search"
      aria-label="サロン検索条件"
      noValidate
      onChange={
        onFieldsChange ? (event) => onFieldsChange(formParams(event.currentTarget)) : undefined
      }
      onSubmit={(event) => {
        event.preventDefault();
        submit(formParams(event.currentTarget), { method: "get", action: "/salons/search" });
        onSearch?.();
      }}
    >
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="search-q" className="font-bold">
            キーワード
          </label>
          <input
            id="search-q"
            type="search"
            name="q"
            defaultValue={typed.q ?? query.q ?? ""}
            placeholder="サロン名・駅名・メニュー名など"
            aria-invalid={errors.q ? true : undefined}
            aria-describedby={errors.q ? "search-q-error" : undefined}
            className={`${control} ${errors.q ? "border-red-700 bg-red-50" : ""}`}
          />
          {errors.q ? (
            <p id="search-q-error" role="alert" className="text-sm font-bold text-red-700">
              {errors.q}
            </p>
          ) : null}
        </div>
        <Select
          id="search-pref"
          name="pref"
          label="都道府県"
          value={query.pref}
          onChange={(event) => setPrefecture(event.currentTarget.value)}
        >
          {options.prefectures.map((item) => (
            <option key={item.slug} value={item.slug}>
              {item.name}
            </option>
          ))}
        </Select>
        <Select id="search-area" name="area" label="エリア" value={query.area}>
          {[...areaGroups].map(([prefectureName, group]) => (
            <optgroup key={prefectureName} label={prefectureName}>
              {group.map((item) => (
                <option key={item.slug} value={item.slug}>
                  {item.name}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
        {options.stations.length > 0 ? (
          <Select id="search-station" name="station" label="駅" value={query.station}>
            {options.stations.map((item) => (
              <option key={item.slug} value={item.slug}>
                {item.name}駅
              </option>
            ))}
          </Select>
        ) : null}
        <Select id="search-genre" name="genre" label="ジャンル" value={query.genre}>
          {Object.entries(genreLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        <fieldset>
          <legend className="font-bold">こだわり条件</legend>
          <ul className="mt-1 grid grid-cols-1 gap-1">
            {options.features.map((feature) => (
              <li key={feature.slug}>
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    name="feature"
                    value={feature.slug}
                    defaultChecked={query.feature.includes(feature.slug)}
                    className="size-4"
                  />
                  {feature.name}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <fieldset>
          <legend className="font-bold">価格帯（最安メニュー）</legend>
          <div className="mt-1 grid grid-cols-2 gap-2">
            <Select id="search-price-min" name="priceMin" label="下限" value={query.priceMin}>
              {priceChoices.map((yen) => (
                <option key={yen} value={yen}>
                  {formatYen(yen)}以上
                </option>
              ))}
            </Select>
            <Select id="search-price-max" name="priceMax" label="上限" value={query.priceMax}>
              {priceChoices.map((yen) => (
                <option key={yen} value={yen}>
                  {formatYen(yen)}以下
                </option>
              ))}
            </Select>
          </div>
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor="search-date" className="font-bold">
            空席のある日
          </label>
          <input
            id="search-date"
            type="date"
            name="date"
            min={today}
            defaultValue={typed.date ?? query.date ?? ""}
            aria-invalid={errors.date ? true : undefined}
            aria-describedby={errors.date ? "search-date-error" : "search-date-hint"}
            className={`${control} ${errors.date ? "border-red-700 bg-red-50" : ""}`}
          />
          {/* A range (今週末 typed in the keyword box, or chosen here): its last day. */}
          <label htmlFor="search-date-to" className="mt-1 text-sm">
            〜最終日（期間で探すとき・7日間まで）
          </label>
          <input
            id="search-date-to"
            type="date"
            name="dateTo"
            min={today}
            defaultValue={errors.date ? "" : (query.dateTo ?? "")}
            aria-describedby={errors.date ? undefined : "search-date-hint"}
            className={control}
          />
          {errors.date ? (
            <p id="search-date-error" role="alert" className="text-sm font-bold text-red-700">
              {errors.date}
            </p>
          ) : (
            <p id="search-date-hint" className="text-xs text-neutral-700">
              その日（期間ならいずれかの日）に予約できる時間があるサロンだけを表示します
            </p>
          )}
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="font-bold">時間帯（開始時刻）</legend>
          <div className="grid grid-cols-2 gap-2">
            <Select id="search-from" name="from" label="から" value={query.from}>
              {hourChoices.slice(0, -1).map((time) => (
                <option key={time} value={time}>
                  {time}以降
                </option>
              ))}
            </Select>
            <Select id="search-to" name="to" label="まで" value={query.to}>
              {hourChoices.slice(1).map((time) => (
                <option key={time} value={time}>
                  {time}より前
                </option>
              ))}
            </Select>
          </div>
        </fieldset>
        <Select id="search-rating" name="rating" label="口コミ評価" value={query.rating}>
          {ratingChoices.map((rating) => (
            <option key={rating} value={rating}>
              ★{rating.toFixed(1)}以上
            </option>
          ))}
        </Select>
        <Select id="search-sort" name="sort" label="並び順" value={query.sort} emptyLabel={null}>
          {searchSorts
            .filter((sort) => sort !== "distance" || query.lat !== undefined)
            .map((sort) => (
              <option key={sort} value={sort}>
                {sortLabels[sort]}
              </option>
            ))}
        </Select>
        {query.lat !== undefined && query.lng !== undefined ? (
          <>
            <input type="hidden" name="lat" value={query.lat} />
            <input type="hidden" name="lng" value={query.lng} />
          </>
        ) : null}
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
        >
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

/** The form's fields as the search's URL query, without the empty ones. */
function formParams(form: HTMLFormElement) {
  const fields = [...new FormData(form)].filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  const params = new URLSearchParams(fields);
  return withoutEmptyParams(params) ?? params;
}

/** Whole hours a visitor picks a time range from (start times, 08:00 to 22:00). */
const hourChoices = Array.from({ length: 15 }, (_, i) => `${String(8 + i).padStart(2, "0")}:00`);

function Select({
  id,
  name,
  label,
  value,
  emptyLabel = "指定なし",
  onChange,
  children,
}: {
  id: string;
  name: string;
  label: string;
  value: string | number | undefined;
  emptyLabel?: string | null;
  onChange?: React.ChangeEventHandler<HTMLSelectElement>;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value ?? ""}
        onChange={onChange}
        className={control}
      >
        {emptyLabel === null ? null : <option value="">{emptyLabel}</option>}
        {children}
      </select>
    </div>
  );
}
