import { data, Form, redirect, useNavigation } from "react-router";
import { contactCategoryLabels } from "../../common/contact-categories";
import { type FieldErrors, fieldErrors } from "../../common/field-rules";
import { clientIp } from "../../server/accounts/request-info";
import { ContactLimitError, submitContactMessage } from "../../server/content/contact";
import { type ContactField, contactSchema } from "../../server/content/contact.schema";
import { appContext } from "../../server/context";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "../components/form/field";
import { StaticPage } from "../components/static-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "お問い合わせ",
    description: "Salon Naviへのご質問・ご意見・サロン掲載のご相談はこちらのフォームからどうぞ。",
    path: "/contact",
    origin: originFromMatches(matches),
  });

export function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    category: String(form.get("category") ?? ""),
    body: String(form.get("body") ?? ""),
  };
  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) {
    return data({ errors: fieldErrors<ContactField>(parsed.error), values }, { status: 400 });
  }
  const { db, accounts } = context.get(appContext);
  try {
    await submitContactMessage(db, accounts.limits, parsed.data, {
      ip: clientIp(request),
      userAgent: request.headers.get("user-agent") ?? "",
    });
  } catch (error) {
    if (!(error instanceof ContactLimitError)) throw error;
    return data({ errors: {}, formError: error.message, values }, { status: error.status });
  }
  // Post/Redirect/Get: a reload of the thanks state does not send the message twice.
  return redirect("/contact?sent=1");
}

const categoryOptions = Object.entries(contactCategoryLabels).map(([value, label]) => ({
  value,
  label,
}));

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  if (loaderData.sent) {
    return (
      <StaticPage title="お問い合わせ">
        <section aria-labelledby="contact-thanks" className="rounded-lg bg-brand-50 p-6">
          <h2 id="contact-thanks">お問い合わせありがとうございました</h2>
          <p>内容を確認のうえ、担当者より3営業日以内にご連絡いたします。しばらくお待ちください。</p>
        </section>
      </StaticPage>
    );
  }
  const errors: FieldErrors<ContactField> = actionData?.errors ?? {};
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const values = actionData?.values;
  return (
    <StaticPage
      title="お問い合わせ"
      lead="ご質問・ご意見・サロン掲載のご相談は、以下のフォームからお送りください。"
    >
      <Form method="post" noValidate className="mt-6 flex flex-col gap-5">
        <ErrorSummary errors={{ ...errors, form: formError }} />
        <TextField
          id="contact-name"
          name="name"
          label="お名前"
          autoComplete="name"
          required
          defaultValue={values?.name}
          error={errors.name}
        />
        <TextField
          id="contact-email"
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          required
          defaultValue={values?.email}
          error={errors.email}
        />
        <SelectField
          id="contact-category"
          name="category"
          label="お問い合わせの種類"
          required
          placeholder="選択してください"
          options={categoryOptions}
          defaultValue={values?.category ?? ""}
          error={errors.category}
        />
        <TextAreaField
          id="contact-body"
          name="body"
          label="お問い合わせ内容"
          hint="10文字以上2000文字以内でご記入ください。"
          rows={8}
          required
          defaultValue={values?.body}
          error={errors.body}
        />
        <button
          type="submit"
          disabled={submitting}
          className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {submitting ? "送信しています…" : "送信する"}
        </button>
      </Form>
    </StaticPage>
  );
}
