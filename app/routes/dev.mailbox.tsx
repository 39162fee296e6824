import { appContext } from "../../server/context";
import { listOutbox } from "../../server/mail/mailer";
import { notFound } from "../../server/routing/not-found";
import { MailList } from "../components/accounts/mail-list";
import type { Route } from "./+types/dev.mailbox";

export const meta: Route.MetaFunction = () => [
  { title: "開発用メールボックス | Salon Navi" },
  { name: "robots", content: "noindex" },
];

/** Mails written to the outbox (no SMTP_URL). Not in production: it would show anyone's links. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  if (config.isProduction) {
    throw notFound(request);
  }
  const mails = await listOutbox(db);
  return {
    mails: mails.map((mail) => ({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      sentAt: mail.createdAt.toISOString(),
      attachments: mail.attachments,
    })),
  };
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return <MailList mails={loaderData.mails} />;
}
