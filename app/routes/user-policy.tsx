import { StaticPage } from "../components/static-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/user-policy";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "利用規約",
    description: "Salon Naviの利用規約です。サービスをご利用の前にお読みください。",
    path: "/user-policy",
    origin: originFromMatches(matches),
  });

export default function UserPolicy() {
  return (
    <StaticPage
      title="利用規約"
      lead="この利用規約（以下「本規約」）は、株式会社サロンナビ（以下「当社」）が提供する「Salon Navi」（以下「本サービス」）の利用条件を定めるものです。"
    >
      <h2>第1条（適用）</h2>
      <p>本規約は、利用者と当社との間の本サービスの利用に関わる一切の関係に適用されます。</p>
      <h2>第2条（会員登録）</h2>
      <p>
        会員登録は、登録希望者が本規約に同意のうえ当社所定の方法で申請し、当社がこれを承認することで完了します。登録情報は正確かつ最新の内容を保ってください。
      </p>
      <h2>第3条（予約とキャンセル）</h2>
      <p>
        予約は、サロンの空き枠を選択して確定した時点で成立します。キャンセルや変更は各サロンの定める期限と条件に従ってください。無断キャンセルが続く場合、当社は本サービスの利用を制限することがあります。
      </p>
      <h2>第4条（禁止事項）</h2>
      <ul>
        <li>法令または公序良俗に違反する行為</li>
        <li>虚偽の予約、または来店の意思のない予約</li>
        <li>他の利用者やサロンになりすます行為</li>
        <li>事実に基づかない口コミの投稿</li>
        <li>本サービスの運営を妨げる行為</li>
      </ul>
      <h2>第5条（免責）</h2>
      <p>
        サロンで提供される施術の内容・品質は各サロンの責任によるものとし、当社は当社の故意または重過失による場合を除き責任を負いません。
      </p>
      <h2>第6条（規約の変更）</h2>
      <p>当社は必要と判断した場合、利用者に通知のうえ本規約を変更できるものとします。</p>
      <p>2026年4月1日 制定</p>
    </StaticPage>
  );
}
