import { data, redirect } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { messageChannelsSchema, messageKindNames } from "../../common/message-channels";
import { formValues } from "../../server/accounts/form-result";
import { requireAuthFull, requireLogin } from "../../server/accounts/guards";
import {
  messagePreferences,
  saveMessageChannels,
} from "../../server/accounts/message-preferences.server";
import { appContext } from "../../server/context";
import { MessageChannelsForm } from "../components/accounts/message-channels-form";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.notifications";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "通知設定",
    description: "予約のお知らせをメール・LINEのどちらで受け取るか",
    path: "/account/edit/notifications",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

// Guards: auth-full, is-login (as /account/edit).
async function guard(request: Request, ctx: Parameters<typeof requireLogin>[1]) {
  await requireAuthFull(request, ctx);
  return requireLogin(request, ctx);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  return {
    preferences: await messagePreferences(ctx.db, user.id),
    saved: new URL(request.url).searchParams.get("saved") === "1",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  const values = formValues(await request.formData(), messageKindNames);
  const parsed = messageChannelsSchema.safeParse(values);
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
  }
  const result = await saveMessageChannels(ctx.db, user.id, parsed.data);
  if (!result.ok) return data({ errors: result.errors, values }, { status: 409 });
  return redirect("/account/edit/notifications?saved=1");
}

export default function AccountNotifications({ loaderData, actionData }: Route.ComponentProps) {
  return <MessageChannelsForm {...loaderData} actionData={actionData} />;
}
