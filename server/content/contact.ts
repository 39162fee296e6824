import type { Database } from "../db/client";
import { contactMessages } from "../db/schema";
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
