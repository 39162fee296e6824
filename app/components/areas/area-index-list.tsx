import { Link } from "react-router";
import type { AreaIndexEntry } from "../../../server/areas/area-pages";

export function AreaIndexList({ regions }: { regions: AreaIndexEntry[] }) {
  return (
    <div className="mt-6 flex flex-col gap-8">
      {regions.map((region) => (
        <section key={region.region} aria-labelledby={`region-${region.region}`}>
          <h2
            id={`region-${region.region}`}
            className="border-b border-neutral-300 pb-1 text-xl font-bold"
          >
            {region.region}
          </h2>
          {region.prefectures.map((prefecture) => (
            <div key={prefecture.slug} className="mt-4">
              <h3 className="font-bold">
                <Link to={`/salons/search?pref=${prefecture.slug}`} className="hover:underline">
                  {prefecture.name}
                </Link>
              </h3>
              <ul className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4">
                {prefecture.areas.map((area) => (
                  <li key={area.slug}>
                    <Link
                      to={`/area/${area.slug}`}
                      className="block rounded-lg border border-neutral-200 px-3 py-2 hover:bg-neutral-50"
                    >
                      <span className="font-bold">{area.name}</span>
                      <span className="block text-xs text-neutral-700">{area.salonCount}件</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
