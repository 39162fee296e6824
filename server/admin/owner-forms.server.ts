import { fieldErrors, uuidText } from "../../common/field-rules";
import { formValues } from "../accounts/form-result";
import type { Config } from "../config";
import type { AppContext } from "../context";
import { DomainError } from "../errors/domain-error";
import { type AdminActor, inviteOwner, salonsByIds } from "../invitations/invitations.server";
import { ownerActionSchema, ownerInviteSchema } from "./admin.schema";
import { searchSalonsForPicker, setOwnerSuspended, unlinkSalon } from "./owners";

/**
 * The forms of /admin/owners (a row's buttons) and /admin/owners/add (the
 * invitation): each submit returns an outcome the route turns into a
 * redirect or the page again with its 4xx status.
 */

export type OwnerActionOutcome =
  | { kind: "done"; intent: "unlink" | "suspend" | "reinstate" }
  | { kind: "refused"; status: number; error: string };

/** A row button of /admin/owners: take a salon from an owner, suspend or reinstate them. */
export async function submitOwnerAction(
  db: AppContext["db"],
  form: FormData,
  actor: AdminActor,
  now: Date,
  sync: Pick<Config, "SESSION_SYNC_URL"> = {},
): Promise<OwnerActionOutcome> {
  const parsed = ownerActionSchema.safeParse({
    intent: String(form.get("intent") ?? ""),
    userId: String(form.get("userId") ?? ""),
    salonId: String(form.get("salonId") ?? ""),
  });
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? "操作の指定が正しくありません。";
    return { kind: "refused", status: 400, error };
  }
  const input = parsed.data;
  try {
    if (input.intent === "unlink") {
      await unlinkSalon(db, { userId: input.userId, salonId: input.salonId }, actor, now);
    } else {
      const suspended = input.intent === "suspend";
      await setOwnerSuspended(db, { userId: input.userId, suspended }, actor, now, sync);
    }
    return { kind: "done", intent: input.intent };
  } catch (error) {
    if (error instanceof DomainError) {
      return { kind: "refused", status: error.status, error: error.message };
    }
    throw error;
  }
}

const inviteFields = ["name", "nameKana", "email", "phone"] as const;
/** The invitation form as typed, kept after a refusal or a salon search. */
export type OwnerInviteValues = Record<(typeof inviteFields)[number], string>;

/** Well-formed salon ids of a form or query string (at most 50); anything else is dropped. */
function salonIdsOf(values: FormDataEntryValue[]) {
  return values
    .map(String)
    .filter((value) => uuidText("サロン").safeParse(value).success)
    .slice(0, 50);
}

/**
 * The query of /admin/owners/add. The salon search is a GET of the page
 * carrying everything typed so far (the search button submits the whole
 * form with formmethod=get), so it works without JavaScript and nothing
 * typed is lost.
 */
export function parseOwnerInviteQuery(params: URLSearchParams) {
  return {
    salonQuery: (params.get("salonQuery") ?? "").slice(0, 100),
    salonIds: salonIdsOf(params.getAll("salonIds")),
    values: Object.fromEntries(
      inviteFields.map((key) => [key, (params.get(key) ?? "").slice(0, 254)]),
    ) as OwnerInviteValues,
  };
}

/** /admin/owners/add: the typed values, the salons chosen so far and the search's results. */
export async function ownerInvitePage(
  db: AppContext["db"],
  query: ReturnType<typeof parseOwnerInviteQuery>,
) {
  const [selected, results] = await Promise.all([
    salonsByIds(db, query.salonIds),
    searchSalonsForPicker(db, query.salonQuery),
  ]);
  return { salonQuery: query.salonQuery, selected, results, values: query.values };
}

export type OwnerInvitePageData = Awaited<ReturnType<typeof ownerInvitePage>>;

/** What the form shows after a refused invitation: why, what was typed and chosen. */
export type OwnerInviteResult = {
  errors: Record<string, string | undefined>;
  values: OwnerInviteValues;
  selected: OwnerInvitePageData["selected"];
};

export type OwnerInviteOutcome =
  | { kind: "invited"; done: "invited" | "upgrade"; email: string }
  | ({ kind: "form"; status: number } & OwnerInviteResult);

/** One submit of /admin/owners/add: a new owner, or the mail asking a member to become one. */
export async function submitOwnerInvite(
  ctx: Pick<AppContext, "db" | "accounts" | "config">,
  form: FormData,
  actor: AdminActor,
  now: Date,
): Promise<OwnerInviteOutcome> {
  const values = formValues(form, inviteFields);
  const salonIds = salonIdsOf(form.getAll("salonIds"));
  const parsed = ownerInviteSchema.safeParse({
    ...values,
    salonIds: form.getAll("salonIds").map(String),
  });
  const failed = async (
    errors: Record<string, string | undefined>,
    status: number,
  ): Promise<OwnerInviteOutcome> => ({
    kind: "form",
    status,
    errors,
    values,
    selected: await salonsByIds(ctx.db, salonIds),
  });
  if (!parsed.success) return failed(fieldErrors<string>(parsed.error), 400);
  try {
    const { kind } = await inviteOwner(
      ctx.db,
      ctx.accounts.mailer,
      parsed.data,
      actor,
      now,
      ctx.config.PUBLIC_URL,
    );
    return {
      kind: "invited",
      done: kind === "new_owner" ? "invited" : "upgrade",
      email: parsed.data.email,
    };
  } catch (error) {
    if (error instanceof DomainError) {
      const field =
        error.code === "salon_not_found" ? "salonIds" : error.code === "form" ? "form" : "email";
      return failed({ [field]: error.message }, error.status);
    }
    throw error;
  }
}
