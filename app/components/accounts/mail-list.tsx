import { formatDateTime } from "../../../common/format";

type Attachment = { filename: string; contentType: string; content: string };
type Mail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
  attachments: Attachment[];
};

/** A download link without a route of its own: the file is small text (an .ics). */
const dataUrl = (file: Attachment) =>
  `data:${file.contentType.split(";")[0]};charset=utf-8,${encodeURIComponent(file.content)}`;

const URL_PATTERN = /(https?:\/\/\S+)/g;

/** The development outbox: newest first, each mail's text with its links clickable. */
export function MailList({ mails }: { mails: Mail[] }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">開発用メールボックス</h1>
      <p className="mt-2 text-neutral-700">
        SMTP_URLが未設定のため、送信メールはここに保存されます（本番環境では表示されません）。
      </p>
      {mails.length === 0 ? <p className="mt-6">メールはまだありません。</p> : null}
      <ol className="mt-6 flex flex-col gap-6">
        {mails.map((mail) => (
          <li key={mail.id}>
            <article
              aria-labelledby={`mail-${mail.id}`}
              className="rounded-lg border border-neutral-300 p-4"
            >
              <h2 id={`mail-${mail.id}`} className="font-bold">
                {mail.subject}
              </h2>
              <p className="text-sm text-neutral-700">
                宛先：{mail.to}（{formatDateTime(mail.sentAt)}）
              </p>
              <div className="mt-3 whitespace-pre-wrap break-all text-sm">
                {mail.text.split(URL_PATTERN).map((part, index) =>
                  part.startsWith("http") ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
                    <a key={index} href={part} className="text-brand-700 underline">
                      {part}
                    </a>
                  ) : (
                    part
                  ),
                )}
              </div>
              {mail.attachments.length > 0 ? (
                <ul className="mt-3 text-sm" aria-label="添付ファイル">
                  {mail.attachments.map((file) => (
                    <li key={file.filename}>
                      <a
                        href={dataUrl(file)}
                        download={file.filename}
                        className="text-brand-700 underline"
                      >
                        添付ファイル：{file.filename}
                      </a>
                    </li>
                  ))}
                </ul>
              ) : null}
            </article>
          </li>
        ))}
      </ol>
    </div>
  );
}
