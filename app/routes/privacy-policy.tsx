import { StaticPage } from "../components/static-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "プライバシーポリシー",
    description: "Salon Naviにおける個人情報の取り扱いについて定めたプライバシーポリシーです。",
    path: "/privacy-policy",
    origin: originFromMatches(matches),
  });

export default function PrivacyPolicy() {
  return (
    <StaticPage
      title="プライバシーポリシー"
      lead="株式会社サロンナビ（以下「当社」）は、利用者の個人情報を以下の方針に基づき適切に取り扱います。"
    >
      <h2>1. 取得する情報</h2>
      <p>
        氏名、ふりがな、メールアドレス、電話番号、性別、生年月日、予約履歴、お気に入り、口コミ、アクセスログ（IPアドレス・ブラウザ情報）を取得します。
      </p>
      <h2>2. 利用目的</h2>
      <ul>
        <li>予約の受付と、予約先サロンへの予約情報の提供</li>
        <li>予約確認・変更・リマインドなどのご連絡</li>
        <li>本人確認、不正利用の防止</li>
        <li>サービスの改善と、統計データの作成（個人を特定しない形で行います）</li>
      </ul>
      <h2>3. 第三者提供</h2>
      <p>
        予約先のサロンへ予約に必要な範囲で情報を提供するほかは、法令に基づく場合を除き、本人の同意なく第三者に提供しません。
      </p>
      <h2>4. 安全管理</h2>
      <p>
        パスワードは復元できない形式で保存し、通信はすべて暗号化しています。個人情報へのアクセスは業務上必要な担当者に限っています。
      </p>
      <h2>5. 開示・訂正・削除</h2>
      <p>
        ご本人からの開示・訂正・利用停止・削除のご請求には、本人確認のうえ速やかに対応します。お問い合わせフォームよりご連絡ください。
      </p>
      <h2>6. Cookieとアクセス解析</h2>
      <p>
        ログイン状態の維持や表示の最適化のためにCookieを使用します。また、サービス改善のためにアクセス解析ツールを利用することがあります。
      </p>
      <p>2026年4月1日 制定</p>
    </StaticPage>
  );
}
