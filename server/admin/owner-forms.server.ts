import type { AppContext } from "../context";
import { DomainError } from "../errors/domain-error";
import { ownerActionSchema } from "./admin.schema";
import { type AdminActor, setOwnerSuspended, unlinkSalon } from "./owners";

/**
 * The forms of /admin/owners (a row's buttons): each submit returns an
 * outcome the route turns into a redirect or the page again with its 4xx
 * status.
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
      await setOwnerSuspended(db, { userId: input.userId, suspended }, actor, now);
    }
    return { kind: "done", intent: input.intent };
  } catch (error) {
    if (error instanceof DomainError) {
      return { kind: "refused", status: error.status, error: error.message };
    }
    throw error;
  }
}
