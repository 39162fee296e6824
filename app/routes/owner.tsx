import { Link, redirect } from "react-router";
import { appContext } from "../../server/context";
import { backOfficeStart } from "../../server/owner/today.server";
import { lastOpenedSalon } from "../../server/salon-access/last-salon.server";
import { requireBackOffice } from "../../server/salon-access/salon-access.server";
import type { Route } from "./+types/owner";

export const meta: Route.MetaFunction = () => [
  { title: "サロン管理 | Salon Navi" },
  { name: "robots", content: "noindex" },
];

// Guard: requireBackOffice (an owner or an administrator; a guest signs in
// first, anyone else gets the 404 screen). An owner opens on the 今日 of the
// salon last opened in this browser, else the first of their salons (decision 0043).
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireBackOffice(request, ctx);
  const start = await backOfficeStart(ctx.db, user, lastOpenedSalon(request));
  if (start.kind === "salon") throw redirect(start.href);
  return { kind: start.kind };
}

export default function OwnerHomePage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6">
      <h1 className="text-2xl font-bold">サロン管理</h1>
      {loaderData.kind === "admin" ? (
        <div className="mt-4 flex flex-col gap-3">
          <p>
            管理者は、サロン一覧から見たいサロンを選んでください。各サロンの行にある「予約台帳」から、そのサロンの今日の予約を開けます。
          </p>
          <p>
            <Link
              to="/admin/salons"
              className="font-bold text-brand-700 underline underline-offset-4"
            >
              サロン一覧（/admin/salons）へ
            </Link>
          </p>
        </div>
      ) : (
        <div role="status" className="mt-4 rounded-lg bg-brand-50 p-4">
          <p className="font-bold">担当しているサロンはまだありません。</p>
          <p className="mt-2">
            サロンが割り当てられると、ここに今日の予約が表示されます。心当たりがない場合は、運営事務局までお問い合わせください。
          </p>
          <p className="mt-2">
            <Link to="/contact" className="font-bold text-brand-700 underline underline-offset-4">
              お問い合わせ
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
