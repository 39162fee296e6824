import { z } from "zod";
import { emailAddress, kanaName, personName, phoneNumber } from "../../common/field-rules";
import { isUuid } from "../../common/uuid";

/** The contact details of a booking (the customer snapshot) and the note to the salon. */
export const contactSchema = () =>
  z.object({
    name: personName("お名前"),
    nameKana: kanaName("お名前（フリガナ）"),
    phone: phoneNumber(),
    email: emailAddress(),
    note: z
      .string()
      .trim()
      .max(500, "ご要望は500文字以内で入力してください。")
      .optional()
      .transform((note) => note ?? ""),
  });

/** The form's idempotency key when it is one we generated (a UUID); anything else is ignored. */
export function idempotencyKeyOf(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && isUuid(value) ? value : null;
}
