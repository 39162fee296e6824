import { Link } from "react-router";
import type { OpeningHours } from "../../../server/db/schema";
import type { loadSalonAccessPage, SalonFrame } from "../../../server/salons/salon-sections";
import { headingClass, sectionClass } from "./salon-access-summary";

export type SalonAccessPage = Awaited<ReturnType<typeof loadSalonAccessPage>>;

const weekdayNames = ["日", "月", "火", "水", "木", "金", "土"];
/** The week as a Japanese calendar of hours reads it: Monday first, Sunday last. */
const weekOrder = [1, 2, 3, 4, 5, 6, 0];

const mapLinkClass =
  "inline-flex min-h-11 items-center rounded-lg border border-neutral-400 px-4 py-2 font-bold hover:bg-neutral-50";

type Place = { name: string; latitude: number; longitude: number };

/**
 * The salon's place in the visitor's own map application, by coordinates
 * (an address can be read wrongly; no map service is called by us).
 */
export function mapLinks({ name, latitude, longitude }: Place) {
  const at = `${latitude},${longitude}`;
  return {
    google: `https://www.google.com/maps/search/?api=1&query=${at}`,
    apple: `https://maps.apple.com/?ll=${at}&q=${encodeURIComponent(name)}`,
    geo: `geo:${at}?q=${at}(${encodeURIComponent(name)})`,
  };
}

/** Each weekday's hours (a lunch closing as two intervals), 定休日, or 休み. */
export function weeklyHours(
  openingHours: readonly OpeningHours[],
  regularHolidays: readonly number[],
) {
  return weekOrder.map((weekday) => {
    const intervals = openingHours
      .filter((interval) => interval.weekday === weekday)
      .map((interval) => `${interval.opens}〜${interval.closes}`);
    return {
      weekday,
      label: `${weekdayNames[weekday]}曜日`,
      hours:
        intervals.length > 0
          ? intervals.join("、")
          : regularHolidays.includes(weekday)
            ? "定休日"
            : "休み",
    };
  });
}

/** 定休日 in words: the regular weekdays, 祝日 when the salon closes on them, and its note. */
export function closuresText(
  regularHolidays: readonly number[],
  closedOnPublicHolidays: boolean,
  holidayNote: string,
) {
  const days = weekOrder
    .filter((weekday) => regularHolidays.includes(weekday))
    .map((weekday) => `${weekdayNames[weekday]}曜日`);
  if (closedOnPublicHolidays) days.push("祝日");
  const text = days.length > 0 ? days.join("・") : "なし";
  return holidayNote ? `${text}（${holidayNote}）` : text;
}

/** /salons/:id/access: where the salon is, how to get there, when it is open. */
export function SalonAccessView({
  salon,
  page,
}: {
  salon: SalonFrame["salon"];
  page: SalonAccessPage;
}) {
  const links = mapLinks(salon);
  const newTab = <span className="sr-only">（新しいタブで開きます）</span>;
  return (
    <>
      <section aria-labelledby="salon-place" className={sectionClass}>
        <h2 id="salon-place" className={headingClass}>
          所在地・アクセス
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-[8rem_1fr]">
          <dt className="font-bold">住所</dt>
          <dd>
            〒{salon.postalCode} {salon.address}
          </dd>
          <dt className="font-bold">アクセス</dt>
          <dd>{salon.access || "—"}</dd>
          <dt className="font-bold">最寄り駅</dt>
          <dd>
            {page.stations.length === 0 ? (
              "徒歩圏内（約2km以内）に駅はありません。"
            ) : (
              <ul>
                {page.stations.map((station) => (
                  <li key={station.slug}>
                    <span className="font-bold">{station.name}駅</span>
                    {station.lines.length > 0 ? `（${station.lines.join("・")}）` : ""} 徒歩
                    {station.walkMinutes}分（約{station.metres.toLocaleString("ja-JP")}m）
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-1 text-xs text-neutral-700">
              徒歩時間は直線距離から80m＝1分として計算した目安です。
            </p>
          </dd>
          {salon.phone ? (
            <>
              <dt className="font-bold">電話番号</dt>
              <dd>
                <a href={`tel:${salon.phone}`} className="underline">
                  {salon.phone}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
        <h3 className="mt-6 font-bold">地図アプリで開く</h3>
        <ul className="mt-2 flex flex-wrap gap-2">
          <li>
            <a
              href={links.google}
              target="_blank"
              rel="noopener noreferrer"
              className={mapLinkClass}
            >
              Googleマップ{newTab}
            </a>
          </li>
          <li>
            <a
              href={links.apple}
              target="_blank"
              rel="noopener noreferrer"
              className={mapLinkClass}
            >
              Appleマップ{newTab}
            </a>
          </li>
          <li>
            <a href={links.geo} className={mapLinkClass}>
              その他の地図アプリ
            </a>
          </li>
        </ul>
      </section>
      <section aria-labelledby="salon-hours" className={sectionClass}>
        <h2 id="salon-hours" className={headingClass}>
          営業時間・定休日
        </h2>
        <table className="mt-4 w-full max-w-md text-left">
          <caption className="sr-only">曜日ごとの営業時間</caption>
          <tbody>
            {weeklyHours(page.openingHours, salon.regularHolidays).map((day) => (
              <tr key={day.weekday} className="border-b border-neutral-200">
                <th scope="row" className="py-2 pr-4 font-bold">
                  {day.label}
                </th>
                <td className="py-2">{day.hours}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-4">
          <span className="font-bold">定休日：</span>
          {closuresText(salon.regularHolidays, page.closedOnPublicHolidays, salon.holidayNote)}
        </p>
      </section>
      {page.features.length > 0 ? (
        <section aria-labelledby="salon-features" className={sectionClass}>
          <h2 id="salon-features" className={headingClass}>
            こだわり条件
          </h2>
          <ul className="mt-4 flex flex-wrap gap-2">
            {page.features.map((feature) => (
              <li key={feature.slug}>
                <Link
                  to={`/salons/feature/${feature.slug}`}
                  className="inline-block rounded-full border border-neutral-400 px-3 py-0.5 text-sm hover:bg-neutral-50"
                >
                  {feature.name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
