import { Link } from "react-router";
import { StaticPage } from "../components/static-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Salon Naviについて",
    description: "Salon Naviは、全国の美容サロンを探してそのままネット予約できるサービスです。",
    path: "/about",
    origin: originFromMatches(matches),
  });

export default function About() {
  return (
    <StaticPage
      title="Salon Naviについて"
      lead="行きたいサロンが、すぐ見つかる。空いている時間に、すぐ予約できる。"
    >
      <h2>サービスの特長</h2>
      <ul>
        <li>
          ヘア・ネイル・まつげ・エステ・ヘッドスパのサロンを、エリア・駅・こだわり条件で検索できます。
        </li>
        <li>
          メニュー・スタイリスト・空き時間を選んで、24時間いつでもネット予約。予約が重なることはありません。
        </li>
        <li>実際に来店したお客様の口コミで、サロンの雰囲気や技術がわかります。</li>
        <li>お気に入りのサロンや予約履歴は、会員ページでいつでも確認できます。</li>
      </ul>
      <h2>ご利用料金</h2>
      <p>
        会員登録・サロン検索・ネット予約はすべて無料です。施術代金はサロンでのお支払いとなります。
      </p>
      <h2>サロンオーナーの皆さまへ</h2>
      <p>
        掲載をご希望のサロン様は、<Link to="/contact">お問い合わせフォーム</Link>
        より「サロン掲載について」を選んでご連絡ください。
      </p>
    </StaticPage>
  );
}
