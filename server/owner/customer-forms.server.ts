import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { customerActionSchema } from "./customers.schema";
import { mergeCustomers, saveCustomerNotes, unmergeCustomer } from "./customers.server";

/**
 * The detail page's forms (notes, 統合する, 統合を取り消す), for the route's
 * action: the outcome to redirect on, or the refusal to show with what was
 * typed kept.
 */
export type CustomerFormOutcome =
  | { kind: "done"; intent: "notes" | "merge" | "unmerge" }
  | {
      kind: "refused";
      status: number;
      intent: string;
      error: string;
      /** The notes as typed, so a refused save loses nothing. */
      notes?: string;
    };

const textOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

export async function submitCustomerForm(
  db: Database,
  salonId: string,
  customerId: string,
  form: FormData,
  now: Date,
): Promise<CustomerFormOutcome> {
  const intent = textOf(form, "intent") ?? "";
  const typedNotes = textOf(form, "notes");
  const parsed = customerActionSchema.safeParse({
    intent,
    notes: typedNotes,
    seenNotes: textOf(form, "seenNotes"),
    otherId: textOf(form, "otherId"),
  });
  if (!parsed.success) {
    return {
      kind: "refused",
      status: 422,
      intent,
      error: parsed.error.issues[0]?.message ?? "入力内容を確認してください。",
      notes: typedNotes,
    };
  }
  const action = parsed.data;
  try {
    if (action.intent === "notes") {
      await saveCustomerNotes(db, salonId, {
        customerId,
        notes: action.notes,
        seenNotes: action.seenNotes,
      });
    } else if (action.intent === "merge") {
      await mergeCustomers(db, salonId, { customerId, otherId: action.otherId }, now);
    } else {
      await unmergeCustomer(db, salonId, { customerId, otherId: action.otherId });
    }
  } catch (error) {
    // A missing record is the 404 screen, like any other salon's id.
    if (error instanceof DomainError && error.status !== 404) {
      return {
        kind: "refused",
        status: error.status,
        intent,
        error: error.message,
        notes: typedNotes,
      };
    }
    throw error;
  }
  return { kind: "done", intent: action.intent };
}
