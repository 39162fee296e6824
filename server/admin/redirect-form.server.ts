import { fieldErrors, uuidText } from "../../common/field-rules";
import { formValues } from "../accounts/form-result";
import type { AppContext } from "../context";
import { DomainError } from "../errors/domain-error";
import { redirectRuleSchema } from "./redirects.schema";
import {
  createRedirectRule,
  findRedirectRule,
  listRedirectRules,
  RedirectRuleError,
  removeRedirectRule,
  updateRedirectRule,
} from "./redirects.server";

const fields = ["path", "target", "statusCode"] as const;
/** The add/edit form of /admin/redirects as typed, kept after a refusal. */
export type RedirectFormValues = Record<(typeof fields)[number], string>;

/** /admin/redirects: every rule, and the one ?edit= opens in the form (none if unknown). */
export async function redirectsPage(db: AppContext["db"], editId: string | null) {
  const [rules, editing] = await Promise.all([
    listRedirectRules(db),
    editId ? findRedirectRule(db, editId) : null,
  ]);
  return {
    rules,
    editing: editing
      ? {
          id: editing.id,
          values: {
            path: editing.path,
            target: editing.target,
            statusCode: String(editing.statusCode),
          } satisfies RedirectFormValues,
        }
      : null,
  };
}

export type RedirectsPageData = Awaited<ReturnType<typeof redirectsPage>>;

/** What the page shows after a refused submit: which form (intent, rule) and why. */
export type RedirectFormResult = {
  errors: Record<string, string | undefined>;
  values: RedirectFormValues;
  intent: string;
  id: string | null;
};

/**
 * One submit of /admin/redirects (add, change or delete a rule): the route
 * turns `done` into a redirect to the list and `form` into the page again
 * with its status and every typed value.
 */
export type RedirectFormOutcome =
  | { kind: "done"; done: "created" | "updated" | "deleted" }
  | ({ kind: "form"; status: number } & RedirectFormResult);

export async function submitRedirectForm(
  ctx: Pick<AppContext, "db" | "redirects" | "config">,
  form: FormData,
  actor: { id: string },
  now: Date,
): Promise<RedirectFormOutcome> {
  const intent = String(form.get("intent") ?? "");
  const id = uuidText("リダイレクト").safeParse(String(form.get("id") ?? ""));
  const values: RedirectFormValues = formValues(form, fields);
  const failed = (errors: Record<string, string | undefined>, status: number) =>
    ({
      kind: "form",
      status,
      errors,
      values,
      intent,
      id: id.success ? id.data : null,
    }) as const;
  if (intent !== "create" && !id.success) {
    return failed({ form: "操作するリダイレクトの指定が正しくありません。" }, 400);
  }
  try {
    if (intent === "delete" && id.success) {
      await removeRedirectRule(ctx.db, ctx.redirects, id.data, actor, now);
      return { kind: "done", done: "deleted" };
    }
    if (intent !== "create" && intent !== "update") {
      return failed({ form: "操作の指定が正しくありません。" }, 400);
    }
    const parsed = redirectRuleSchema(new URL(ctx.config.PUBLIC_URL).origin).safeParse(values);
    if (!parsed.success) return failed(fieldErrors<string>(parsed.error), 422);
    if (intent === "update" && id.success) {
      await updateRedirectRule(ctx.db, ctx.redirects, id.data, parsed.data, actor, now);
      return { kind: "done", done: "updated" };
    }
    await createRedirectRule(ctx.db, ctx.redirects, parsed.data, actor, now);
    return { kind: "done", done: "created" };
  } catch (error) {
    if (error instanceof RedirectRuleError)
      return failed({ [error.field]: error.message }, error.status);
    if (error instanceof DomainError) return failed({ form: error.message }, error.status);
    throw error;
  }
}
