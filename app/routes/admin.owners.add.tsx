import { data, Form, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { formValues } from "../../server/accounts/form-result";
import { requireAdmin } from "../../server/accounts/guards";
import { ownerInviteSchema, uuidText } from "../../server/admin/admin.schema";
import { inviteOwner, salonsByIds, searchSalonsForPicker } from "../../server/admin/owners";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { AdminFrame, buttonClass, secondaryButtonClass } from "../components/admin/admin-frame";
import { ErrorSummary, TextField } from "../components/form/field";
import type { Route } from "./+types/admin.owners.add";

export const meta: Route.MetaFunction = () => [
  { title: "オーナーの追加 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

const fields = ["name", "nameKana", "email", "phone"] as const;

/** Well-formed salon ids of a form or query string (at most 50); anything else is dropped. */
function salonIdsOf(values: FormDataEntryValue[]) {
  return values
    .map(String)
    .filter((value) => uuidText("サロン").safeParse(value).success)
    .slice(0, 50);
}

/**
 * The salon search is a GET of this page carrying everything typed so far
 * (the search button submits the whole form with formmethod=get), so it
 * works without JavaScript and nothing typed is lost.
 */
// Guards (SPEC.md §2): auth-full, admin-only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const params = new URL(request.url).searchParams;
  const salonQuery = (params.get("salonQuery") ?? "").slice(0, 100);
  const selectedIds = salonIdsOf(params.getAll("salonIds"));
  const [selected, results] = await Promise.all([
    salonsByIds(ctx.db, selectedIds),
    searchSalonsForPicker(ctx.db, salonQuery),
  ]);
  const values = Object.fromEntries(
    fields.map((key) => [key, (params.get(key) ?? "").slice(0, 254)]),
  );
  return { salonQuery, selected, results, values };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const form = await request.formData();
  const values = formValues(form, fields);
  const salonIds = salonIdsOf(form.getAll("salonIds"));
  const parsed = ownerInviteSchema.safeParse({
    ...values,
    salonIds: form.getAll("salonIds").map(String),
  });
  const failed = async (errors: Record<string, string | undefined>, status: number) =>
    data({ errors, values, selected: await salonsByIds(ctx.db, salonIds) }, { status });
  if (!parsed.success) return failed(fieldErrors<string>(parsed.error), 400);
  try {
    const { kind } = await inviteOwner(
      ctx.db,
      ctx.accounts.mailer,
      parsed.data,
      admin,
      new Date(),
      ctx.config.PUBLIC_URL,
    );
    const params = new URLSearchParams({
      done: kind === "new_owner" ? "invited" : "upgrade",
      q: parsed.data.email,
    });
    return redirect(`/admin/owners?${params}`);
  } catch (error) {
    if (error instanceof DomainError) {
      const field =
        error.code === "salon_not_found" ? "salonIds" : error.code === "form" ? "form" : "email";
      return failed({ [field]: error.message }, error.status);
    }
    throw error;
  }
}

export default function AdminOwnerAdd({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? loaderData.values;
  const selected = actionData?.selected ?? loaderData.selected;
  const selectedIds = new Set(selected.map((salon) => salon.id));
  const results = loaderData.results.filter((salon) => !selectedIds.has(salon.id));
  const key = actionData ? "result" : "initial";
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
                defaultValue={loaderData.salonQuery}
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
