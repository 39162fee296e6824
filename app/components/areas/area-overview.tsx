import { Link } from "react-router";
import type { AreaPage } from "../../../server/areas/area-pages";

const chip =
  "inline-block rounded-full border border-neutral-400 px-3 py-1 text-sm hover:bg-neutral-50";

/** Sub-areas, stations and popular features of an area, each a way to narrow the list. */
export function AreaOverview({ page }: { page: AreaPage }) {
  const { area } = page;
  return (
    <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-3">
      {page.subAreas.length > 0 ? (
        <section aria-labelledby="sub-areas">
          <h2 id="sub-areas" className="text-lg font-bold">
            {area.name}の中のエリア
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {page.subAreas.map((sub) => (
              <li key={sub.slug}>
                <Link to={`/area/${sub.slug}`} className={chip}>
                  {sub.name}（{sub.salonCount}）
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="area-stations">
        <h2 id="area-stations" className="text-lg font-bold">
          駅から探す
        </h2>
        <ul className="mt-2 flex flex-wrap gap-2">
          {page.stations.map((station) => (
            <li key={station.slug}>
              <Link
                to={`/salons/search?area=${area.slug}&station=${station.slug}`}
                className={chip}
              >
                {station.name}駅（{station.salonCount}）
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="area-features">
        <h2 id="area-features" className="text-lg font-bold">
          {area.name}で人気のこだわり条件
        </h2>
        <ul className="mt-2 flex flex-wrap gap-2">
          {page.popularFeatures.map((feature) => (
            <li key={feature.slug}>
              <Link
                to={`/salons/search?area=${area.slug}&feature=${feature.slug}`}
                className={chip}
              >
                {feature.name}（{feature.salonCount}）
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
