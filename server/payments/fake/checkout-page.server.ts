import { formatYen } from "../../../common/format";

/**
 * The fake's hosted payment page, standing in for checkout.stripe.com: a
 * plain form, no script, labelled テスト決済 so nobody mistakes it for a
 * real payment.
 */
export const TEST_CARDS = [
  { number: "4242 4242 4242 4242", result: "成功" },
  {
    number: "4000 0027 6000 3184",
    result: "本人認証（3Dセキュア）が必要。登録後の自動請求も認証が必要で失敗",
  },
  { number: "4000 0000 0000 0002", result: "カード会社により拒否（card_declined）" },
  { number: "4000 0000 0000 9995", result: "残高不足（insufficient_funds）" },
] as const;

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,sans-serif;line-height:1.6;color:#1f2328;background:#f6f8fa}
.banner{background:#7a4b00;color:#fff;padding:.5rem 1rem;font-weight:bold;text-align:center}
main{max-width:28rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.5rem 0}
.summary{background:#fff;border:1px solid #d0d7de;border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}
.amount{font-size:1.5rem;font-weight:bold}
label{display:block;font-weight:bold;margin-top:1rem}
.hint{font-size:.875rem;color:#57606a;margin:.25rem 0}
input{width:100%;font-size:1.1rem;padding:.5rem;border:1px solid #57606a;border-radius:.25rem}
input[aria-invalid=true]{border:2px solid #b3261e}
.row{display:flex;gap:1rem;flex-wrap:wrap}.row>div{flex:1 1 8rem}
button{margin-top:1.25rem;width:100%;font-size:1.1rem;padding:.75rem;border:0;border-radius:.25rem;background:#0b57d0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#b3261e;border:1px solid #b3261e}
.errors{border:2px solid #b3261e;background:#fff;padding:.75rem 1rem;margin:1rem 0;border-radius:.25rem}
.errors h2{font-size:1rem;margin:0;color:#b3261e}
.field-error{color:#b3261e;font-weight:bold;margin:.25rem 0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
details{margin-top:1.5rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}｜テスト決済</title>
<style>${STYLE}</style>
</head>
<body>
<header><p class="banner">テスト決済：実際の請求は行われません</p></header>
<main>
${body}
</main>
</body>
</html>`;
}

export type CheckoutPageModel = {
  sessionId: string;
  mode: "payment" | "setup";
  description: string;
  amount: number | null;
  cancelUrl: string | null;
  values?: { number?: string; expiry?: string; cvc?: string };
  errors?: { field: "number" | "expiry" | "cvc" | "form"; message: string }[];
};

export function renderCheckoutPage(model: CheckoutPageModel): string {
  const values = model.values ?? {};
  const errors = model.errors ?? [];
  const errorFor = (field: string) => errors.find((e) => e.field === field);
  const input = (
    field: "number" | "expiry" | "cvc",
    label: string,
    hint: string,
    attributes: string,
  ) => {
    const error = errorFor(field);
    const described = [`${field}-hint`, error ? `${field}-error` : ""].filter(Boolean).join(" ");
    return `<div>
<label for="${field}">${label}</label>
<p class="hint" id="${field}-hint">${hint}</p>
${error ? `<p class="field-error" id="${field}-error">${escapeHtml(error.message)}</p>` : ""}
<input id="${field}" name="${field}" ${attributes} value="${escapeHtml(values[field] ?? "")}" aria-describedby="${described}"${error ? ' aria-invalid="true"' : ""} required>
</div>`;
  };
  const summary =
    errors.length > 0
      ? `<div class="errors" role="alert" tabindex="-1" id="error-summary" autofocus>
<h2>お支払いを完了できませんでした</h2>
<ul>${errors
          .map((e) =>
            e.field === "form"
              ? `<li>${escapeHtml(e.message)}</li>`
              : `<li><a href="#${e.field}">${escapeHtml(e.message)}</a></li>`,
          )
          .join("")}</ul>
</div>`
      : "";
  const what =
    model.mode === "payment"
      ? `<p>${escapeHtml(model.description)}</p><p class="amount">${formatYen(model.amount ?? 0)}</p>`
      : `<p>${escapeHtml(model.description)}</p><p>カードを登録します。今は請求されません。キャンセル料が発生したときに、このカードに請求されます。</p>`;
  return layout(
    model.mode === "payment" ? "お支払い" : "カード登録",
    `<h1>テスト決済</h1>
${summary}
<section class="summary" aria-label="${model.mode === "payment" ? "お支払い内容" : "登録内容"}">
${what}
</section>
<form method="post" action="/c/pay/${escapeHtml(model.sessionId)}" novalidate>
${input("number", "カード番号", "16桁の数字（スペースは入れても入れなくてもかまいません）", 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row">
${input("expiry", "有効期限", "月/年（例: 12/30）", 'autocomplete="cc-exp" maxlength="7"')}
${input("cvc", "セキュリティコード", "カード裏面の3桁", 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
</div>
<button type="submit">${model.mode === "payment" ? `${formatYen(model.amount ?? 0)}を支払う` : "カードを登録する"}</button>
</form>
${model.cancelUrl ? `<p><a href="${escapeHtml(model.cancelUrl)}">お支払いをやめて戻る</a></p>` : ""}
<details>
<summary>テスト用のカード番号</summary>
<p>有効期限は未来の月/年、セキュリティコードは任意の3桁を入力してください。</p>
<ul>${TEST_CARDS.map((card) => `<li>${card.number}：${card.result}</li>`).join("")}</ul>
</details>`,
  );
}

export function renderAuthenticationPage(sessionId: string, amount: number | null): string {
  return layout(
    "本人認証",
    `<h1>テスト決済：本人認証（3Dセキュア）</h1>
<p>カード会社の本人認証を模した画面です。${amount !== null ? `${formatYen(amount)}のお支払いを` : "カードの登録を"}認証するか、認証に失敗させるかを選んでください。</p>
<form method="post" action="/c/pay/${escapeHtml(sessionId)}/authenticate">
<button type="submit" name="result" value="approve">認証する</button>
<button type="submit" name="result" value="fail" class="secondary">認証に失敗させる</button>
</form>`,
  );
}

export function renderClosedPage(status: "complete" | "expired", returnUrl: string | null): string {
  const message =
    status === "complete"
      ? "このお支払いは完了しています。"
      : "このお支払いページは有効期限が切れました。予約画面からもう一度お試しください。";
  return layout(
    status === "complete" ? "完了" : "期限切れ",
    `<h1>テスト決済</h1>
<p role="status">${message}</p>
${returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">予約画面に戻る</a></p>` : ""}`,
  );
}
