import { Form, useNavigation } from "react-router";
import type { ProductsPageData } from "../../../server/owner/products.server";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { OwnerPage } from "./owner-frame";

export type ProductsResult = {
  intent: string;
  errors: Record<string, string>;
  values: Record<string, string>;
};

const sectionClass = "rounded-lg border border-neutral-300 p-4";
const headingClass = "mb-3 text-lg font-bold";

/**
 * 店販商品 (retail items offered on the 会計 form) and the 適格請求書発行事業者
 * registration number the 領収書 prints (decision 0079).
 */
export function ProductsView({
  data,
  result,
}: {
  data: ProductsPageData;
  result: ProductsResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const errorsOf = (intent: string, productId?: string) =>
    result && result.intent === intent && (!productId || result.values.productId === productId)
      ? result.errors
      : {};
  const typed = (intent: string, name: string, fallback: string, productId?: string) =>
    result && result.intent === intent && (!productId || result.values.productId === productId)
      ? (result.values[name] ?? fallback)
      : fallback;
  const add = errorsOf("add");
  const invoice = errorsOf("invoice");
  return (
    <OwnerPage title="店販商品・領収書">
      <div className="mt-4 flex max-w-2xl flex-col gap-6">
        {data.saved && !result ? <FocusedNotice>{data.saved}</FocusedNotice> : null}
        <ErrorSummary errors={result?.errors ?? {}} />

        <section className={sectionClass} aria-labelledby="invoice-heading">
          <h2 id="invoice-heading" className={headingClass}>
            領収書
          </h2>
          <Form method="post" noValidate className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="invoice" />
            <TextField
              id="invoice-number"
              name="invoiceNumber"
              label="適格請求書発行事業者の登録番号"
              hint="「T」と13桁の数字（例：T1234567890123）。登録していない場合は空欄のまま。領収書に印字されます。"
              autoComplete="off"
              defaultValue={typed("invoice", "invoiceNumber", data.invoiceNumber)}
              error={invoice.invoiceNumber}
            />
            <p>
              <button type="submit" className={buttonClass} disabled={busy}>
                登録番号を保存
              </button>
            </p>
          </Form>
        </section>

        <section className={sectionClass} aria-labelledby="add-heading">
          <h2 id="add-heading" className={headingClass}>
            店販商品を追加
          </h2>
          <Form method="post" noValidate className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="add" />
            <TextField
              id="add-name"
              name="name"
              label="商品名"
              required
              maxLength={60}
              defaultValue={typed("add", "name", "")}
              error={add.name}
            />
            <TextField
              id="add-price"
              name="price"
              label="価格（税込・円）"
              required
              inputMode="numeric"
              defaultValue={typed("add", "price", "")}
              error={add.price}
            />
            <p>
              <button type="submit" className={buttonClass} disabled={busy}>
                追加
              </button>
            </p>
          </Form>
        </section>

        <section className={sectionClass} aria-labelledby="list-heading">
          <h2 id="list-heading" className={headingClass}>
            登録済みの店販商品（{data.products.length}件）
          </h2>
          {data.products.length === 0 ? (
            <p className="text-sm text-neutral-700">まだありません。</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {data.products.map((product) => {
                const errors = errorsOf("update", product.id);
                return (
                  <li key={product.id} className="rounded-lg border border-neutral-200 p-3">
                    <Form method="post" noValidate className="flex flex-col gap-3">
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="productId" value={product.id} />
                      <TextField
                        id={`name-${product.id}`}
                        name="name"
                        label="商品名"
                        required
                        maxLength={60}
                        defaultValue={typed("update", "name", product.name, product.id)}
                        error={errors.name}
                      />
                      <TextField
                        id={`price-${product.id}`}
                        name="price"
                        label="価格（税込・円）"
                        required
                        inputMode="numeric"
                        defaultValue={typed("update", "price", String(product.price), product.id)}
                        error={errors.price}
                      />
                      <label className="flex items-center gap-2">
                        <input type="checkbox" name="active" defaultChecked={product.active} />
                        販売中（外すと会計に出ません）
                      </label>
                      <p>
                        <button type="submit" className={secondaryButtonClass} disabled={busy}>
                          {product.name}を保存
                        </button>
                      </p>
                    </Form>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </div>
    </OwnerPage>
  );
}
