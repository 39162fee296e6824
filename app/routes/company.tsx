import { StaticPage } from "../components/static-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/company";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "運営会社",
    description: "Salon Naviを運営する株式会社サロンナビの会社概要です。",
    path: "/company",
    origin: originFromMatches(matches),
  });

const facts: [string, string][] = [
  ["会社名", "株式会社サロンナビ（Salon Navi Inc.）"],
  ["所在地", "〒150-0001 東京都渋谷区神宮前1-2-3 サロンナビビル5F"],
  ["設立", "2024年4月1日"],
  ["代表者", "代表取締役 山田 花子"],
  ["資本金", "1,000万円"],
  ["事業内容", "美容サロン検索・予約サービス「Salon Navi」の企画・開発・運営"],
];

export default function Company() {
  return (
    <StaticPage title="運営会社">
      <h2>会社概要</h2>
      <dl className="divide-y divide-neutral-200 border-y border-neutral-200">
        {facts.map(([term, value]) => (
          <div key={term} className="grid grid-cols-1 gap-1 py-3 sm:grid-cols-[10rem_1fr]">
            <dt className="font-bold">{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </StaticPage>
  );
}
