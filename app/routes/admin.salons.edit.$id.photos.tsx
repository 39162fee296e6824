import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { findSalonForEditor } from "../../server/admin/salon-editor.server";
import { listSalonPhotos } from "../../server/admin/salon-photos.server";
import { submitSalonPhotoForm } from "../../server/admin/salon-photos-form.server";
import { appContext } from "../../server/context";
import { SalonPhotosPage } from "../components/admin/salon-photos-page";
import type { Route } from "./+types/admin.salons.edit.$id.photos";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `写真 ${loaderData?.salon.name ?? ""} | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. An unknown or malformed id is the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const photos = await listSalonPhotos(ctx.db, salon.id);
  return { salon, photos, done: new URL(request.url).searchParams.get("done") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const form = await request.formData();
  const outcome = await submitSalonPhotoForm(ctx, salon, form, admin, new Date());
  if (outcome.kind === "done") {
    return redirect(`/admin/salons/edit/${salon.id}/photos?done=${outcome.intent}`);
  }
  const { errors, photoId, alt } = outcome;
  return data({ errors, photoId, alt }, { status: outcome.status });
}

export default function AdminSalonPhotos({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonPhotosPage {...loaderData} actionData={actionData} />;
}
