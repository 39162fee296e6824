import { Form, useNavigation } from "react-router";
import type {
  OwnerInvitePageData,
  OwnerInviteResult,
} from "../../../server/admin/owner-forms.server";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { AdminFrame } from "./admin-frame";

/**
 * /admin/owners/add: the owner's details and the salons they will manage,
 * found by a search that keeps everything typed (a GET of the same form).
 */
export function OwnerInviteForm({
  data,
  result,
}: {
  data: OwnerInvitePageData;
  result: OwnerInviteResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const values: Record<string, string> = result?.values ?? data.values;
  const selected = result?.selected ?? data.selected;
  const selectedIds = new Set(selected.map((salon) => salon.id));
  const results = data.results.filter((salon) => !selectedIds.has(salon.id));
  const key = result ? "result" : "initial";
  return (
    <AdminFrame title="オーナーの追加">
      <p>
        オーナーのアカウントを作成し、パスワード設定用の招待メール（有効期限72時間）を送ります。
        すでに会員のメールアドレスの場合は、本人が承認するとオーナーになります。
      </p>
      <Form method="post" noValidate className="flex max-w-2xl flex-col gap-5" key={key}>
        <ErrorSummary errors={errors} />
        <TextField
          id="owner-name"
          name="name"
          label="お名前"
          autoComplete="off"
          required
          defaultValue={values.name}
          error={errors.name}
        />
        <TextField
          id="owner-kana"
          name="nameKana"
          label="お名前（フリガナ）"
          autoComplete="off"
          required
          defaultValue={values.nameKana}
          error={errors.nameKana}
        />
        <TextField
          id="owner-email"
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="off"
          required
          defaultValue={values.email}
          error={errors.email}
        />
        <TextField
          id="owner-phone"
          name="phone"
          type="tel"
          label="電話番号"
          autoComplete="off"
          required
          hint="例：03-1234-5678、090-1234-5678"
          defaultValue={values.phone}
          error={errors.phone}
        />
        <fieldset
          className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-4"
          aria-describedby={errors.salonIds ? "owner-salons-error" : undefined}
        >
          <legend className="px-1 font-bold">担当サロン</legend>
          {errors.salonIds ? (
            <p id="owner-salons-error" className="text-sm font-bold text-red-700">
              {errors.salonIds}
            </p>
          ) : null}
          {selected.length > 0 ? (
            <ul className="flex flex-col gap-1" aria-label="選択中のサロン">
              {selected.map((salon) => (
                <li key={salon.id}>
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      name="salonIds"
                      value={salon.id}
                      defaultChecked
                      className="size-5"
                    />
                    {salon.name}
                    <span className="text-xs text-neutral-700">（{salon.slug}）</span>
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm">
              選択中のサロンはありません（あとから追加することもできます）。
            </p>
          )}
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex min-w-56 flex-1 flex-col gap-1">
              <label htmlFor="owner-salon-query" className="text-sm font-bold">
                サロン名・フリガナ・スラッグで探す
              </label>
              <input
                id="owner-salon-query"
                name="salonQuery"
                type="search"
                maxLength={100}
                defaultValue={data.salonQuery}
                className="rounded-lg border border-neutral-400 px-3 py-2"
              />
            </div>
            <button type="submit" formMethod="get" formNoValidate className={secondaryButtonClass}>
              サロンを検索
            </button>
          </div>
          {results.length > 0 ? (
            <ul
              className="flex max-h-72 flex-col gap-1 overflow-y-auto"
              aria-label="検索結果のサロン"
            >
              {results.map((salon) => (
                <li key={salon.id}>
                  <label className="flex items-center gap-2">
                    <input type="checkbox" name="salonIds" value={salon.id} className="size-5" />
                    {salon.name}
                    <span className="text-xs text-neutral-700">（{salon.slug}）</span>
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm">該当するサロンはありません。</p>
          )}
        </fieldset>
        <button type="submit" disabled={busy} className={buttonClass}>
          登録して招待メールを送る
        </button>
      </Form>
    </AdminFrame>
  );
}
