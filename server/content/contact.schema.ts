import { z } from "zod";
import { contactCategories } from "../../common/contact-categories";
import { choice, emailAddress, personName, requiredText } from "../../common/field-rules";

export const contactSchema = z.object({
  name: personName("お名前"),
  email: emailAddress(),
  category: choice("お問い合わせの種類", contactCategories),
  body: requiredText("お問い合わせ内容", 2000).refine((text) => text.length >= 10, {
    message: "お問い合わせ内容は10文字以上で入力してください。",
  }),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;
