import { redirect } from "react-router";
import { signOut } from "../../server/accounts/identity";
import { appContext } from "../../server/context";
import type { Route } from "./+types/signout";

/** POST only (a link could be followed by a crawler or prefetch); scope=all signs out every device. */
export async function action({ request, context }: Route.ActionArgs) {
  const { accounts } = context.get(appContext);
  const form = await request.formData();
  const headers = await signOut(accounts, request, form.get("scope") === "all");
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
