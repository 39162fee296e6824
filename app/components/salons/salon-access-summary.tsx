import { Link } from "react-router";
import type { SalonFrame } from "../../../server/salons/salon-sections";

// A module apart from salon-access.tsx (issue 42): トップ renders only this
// summary, and a module shared by two routes ships every export either uses.
export const sectionClass = "mt-10";
export const headingClass = "border-l-4 border-brand-700 pl-3 text-xl font-bold";

/** トップ's access in brief: the address, the nearest station and the way to 地図・アクセス. */
export function SalonAccessSummary({
  frame,
  accessHref,
}: {
  frame: Pick<SalonFrame, "salon" | "station">;
  accessHref: string;
}) {
  const { salon, station } = frame;
  return (
    <section aria-labelledby="salon-access-summary" className={sectionClass}>
      <h2 id="salon-access-summary" className={headingClass}>
        アクセス
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-[8rem_1fr]">
        <dt className="font-bold">住所</dt>
        <dd>
          〒{salon.postalCode} {salon.address}
        </dd>
        {station ? (
          <>
            <dt className="font-bold">最寄り駅</dt>
            <dd>{station.name}駅</dd>
          </>
        ) : null}
        {salon.access ? (
          <>
            <dt className="font-bold">アクセス</dt>
            <dd>{salon.access}</dd>
          </>
        ) : null}
      </dl>
      <p className="mt-4">
        <Link to={accessHref} className="font-bold text-brand-700 underline">
          地図・アクセス・営業時間を見る
        </Link>
      </p>
    </section>
  );
}
