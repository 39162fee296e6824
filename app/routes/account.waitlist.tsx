import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { privatePageHeaders } from "../../common/page-cache";
import { requireLogin } from "../../server/accounts/guards";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { leaveFromHistory } from "../../server/waitlist/history-waitlist.server";
import { WaitlistNotFoundError } from "../../server/waitlist/waitlist-errors";
import { linkClass } from "../components/accounts/account-frame";
import type { Route } from "./+types/account.waitlist";

export const meta: Route.MetaFunction = () => [
  { title: "キャンセル待ち | Salon Navi" },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2 style): is-login. The entries are listed on /account/history; this
// page only answers a refused post (a redirect here would hide its message).
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireLogin(request, context.get(appContext));
  return null;
}

const leaveSchema = z.object({
  intent: z.literal("leave", { error: "操作が正しくありません。" }),
  entry: z.string({ error: "キャンセル待ちを指定してください。" }).max(100),
});

// POST intent=leave entry={id}: キャンセル待ちをやめる (the history's confirm step sends it).
export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const parsed = leaveSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data(
      { error: parsed.error.issues[0]?.message ?? "入力内容を確認してください。" },
      { status: 400 },
    );
  }
  const outcome = await leaveFromHistory(ctx.db, {
    userId: user.id,
    entryId: parsed.data.entry,
    now: new Date(),
  }).catch((error) => {
    throw error instanceof WaitlistNotFoundError ? notFound(request) : error;
  });
  if (outcome.kind === "redirect") return redirect(outcome.to);
  return data({ error: outcome.error }, { status: outcome.status });
}

/** A refused post's message, or where the entries are; and the way back. */
export default function AccountWaitlist({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold">キャンセル待ち</h1>
      {actionData?.error ? (
        <p role="alert" className="mt-4 font-bold text-red-700">
          {actionData.error}
        </p>
      ) : (
        <p className="mt-4">キャンセル待ちは、予約履歴の「キャンセル待ち」でご覧いただけます。</p>
      )}
      <p className="mt-4">
        <Link to="/account/history#waitlist" className={linkClass}>
          予約履歴のキャンセル待ちへ戻る
        </Link>
      </p>
    </div>
  );
}
