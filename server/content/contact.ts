import { consumeAttempt, type RateLimits } from "../accounts/rate-limit";
import type { Database } from "../db/client";
import { contactMessages } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import type { ContactInput } from "./contact.schema";

export async function saveContactMessage(
  db: Database,
  input: ContactInput,
  userAgent: string,
): Promise<{ id: string }> {
  const [row] = await db
    .insert(contactMessages)
    .values({ ...input, userAgent: userAgent.slice(0, 500) })
    .returning({ id: contactMessages.id });
  if (!row) throw new Error("contact message was not stored");
  return row;
}

export class ContactLimitError extends DomainError {
  constructor(readonly retryAfter: number | null) {
    super(
      "too_many_requests",
      "短時間に多くのお問い合わせが送信されたため、一時的に受け付けを停止しています。しばらく待ってから、もう一度お試しください。",
      429,
    );
  }
}

/**
 * The contact form's one call: counted per client address first (the form
 * needs no account, so a script could otherwise fill the table), then stored.
 */
export async function submitContactMessage(
  db: Database,
  limits: RateLimits,
  input: ContactInput,
  from: { ip: string; userAgent: string },
): Promise<{ id: string }> {
  const result = await consumeAttempt(limits, "contact", { ip: from.ip });
  if (!result.allowed) throw new ContactLimitError(result.retryAfter);
  return saveContactMessage(db, input, from.userAgent);
}
