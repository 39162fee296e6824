import { publicPageHeaders } from "../../common/page-cache";
import { listAreaIndex } from "../../server/areas/area-pages";
import { appContext } from "../../server/context";
import { AreaIndexList } from "../components/areas/area-index-list";
import { Breadcrumbs } from "../components/breadcrumbs";
import { JsonLd } from "../components/json-ld";
import { breadcrumbJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/area";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "エリアからサロンを探す",
    description:
      "都道府県・エリアからヘアサロン、ネイル、まつげ、エステ、ヘッドスパを探せます。エリアごとの掲載サロン数つき。",
    path: "/area",
    origin: originFromMatches(matches),
  });

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const { readDb: db, config } = context.get(appContext);
  return { regions: await listAreaIndex(db), origin: config.PUBLIC_URL };
}

export default function AreaIndex({ loaderData }: Route.ComponentProps) {
  const trail = [
    { name: "トップ", path: "/" },
    { name: "エリア一覧", path: "/area" },
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <JsonLd data={breadcrumbJsonLd(trail, loaderData.origin)} />
      <Breadcrumbs items={trail} />
      <h1 className="mt-4 text-2xl font-bold">エリアからサロンを探す</h1>
      <AreaIndexList regions={loaderData.regions} />
    </div>
  );
}
