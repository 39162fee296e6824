import { data, redirect } from "react-router";
import { z } from "zod";
import { privatePageHeaders } from "../../common/page-cache";
import { requireAccountSetup, requireAuthFull } from "../../server/accounts/guards";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import {
  addFavorite,
  listFavorites,
  removeFavorite,
} from "../../server/favorites/favorites.server";
import { linkClass } from "../components/accounts/account-frame";
import { SalonCardItem } from "../components/salons/salon-card-item";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.favorite";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "お気に入りサロン",
    description: "お気に入りに登録したサロンの一覧",
    path: "/account/favorite",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, account-setup-validation.
async function guard(request: Request, ctx: Parameters<typeof requireAuthFull>[1]) {
  await requireAuthFull(request, ctx);
  return requireAccountSetup(request, ctx);
}

export const headers = privatePageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  return { salons: await listFavorites(ctx.db, user.id) };
}

const toggleSchema = z.object({
  intent: z.enum(["add", "remove"], { error: "操作が正しくありません。" }),
  salon: z.string({ error: "サロンを指定してください。" }).min(1, "サロンを指定してください。"),
  redirect: z.string().optional(),
  stay: z.literal("1").optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  const parsed = toggleSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data(
      { error: parsed.error.issues[0]?.message ?? "入力内容を確認してください。" },
      { status: 400 },
    );
  }
  const { intent, salon, stay } = parsed.data;
  try {
    if (intent === "add") await addFavorite(ctx.db, user.id, salon);
    else await removeFavorite(ctx.db, user.id, salon);
  } catch (error) {
    if (error instanceof DomainError) {
      return data({ error: error.message }, { status: error.status });
    }
    throw error;
  }
  // With JavaScript the toggle stays on its page; without, the browser goes back to it.
  if (stay) return { favorite: intent === "add" };
  return redirect(safeRedirectPath(parsed.data.redirect, "/account/favorite"));
}

export default function AccountFavorite({ loaderData, actionData }: Route.ComponentProps) {
  const { salons } = loaderData;
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">お気に入りサロン</h1>
      {error ? (
        <p role="alert" className="mt-4 font-bold text-red-700">
          {error}
        </p>
      ) : null}
      {salons.length === 0 ? (
        <div className="mt-6 rounded-lg bg-brand-50 p-6">
          <p>お気に入りに登録したサロンはまだありません。</p>
          <p className="mt-2">サロンのページや検索結果の「お気に入り」ボタンで登録できます。</p>
          <p className="mt-2">
            <a href="/salons/search" className={linkClass}>
              サロンを探す
            </a>
          </p>
        </div>
      ) : (
        <ul className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {salons.map((salon) => (
            <li key={salon.slug}>
              <SalonCardItem salon={salon} favorite="on" headingLevel={2} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
