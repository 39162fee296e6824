import { formatDateTime } from "../../../common/format";

type Inbox = {
  fake: boolean;
  users: { lineUserId: string; messages: { id: string; at: string; texts: string[] }[] }[];
};

const URL_PATTERN = /(https?:\/\/\S+)/g;

/** The development LINE: what the fake Messaging API received, by LINE user, newest first. */
export function LineInbox({ fake, users }: Inbox) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">開発用LINE</h1>
      <p className="mt-2 text-neutral-700">
        {fake
          ? "LINE_CHANNEL_ACCESS_TOKENが未設定のため、LINEのメッセージはローカルの代替サーバーに届き、ここに表示されます（本番環境では表示されません）。"
          : "このサーバーは本物のLINEチャネルに送信しているため、ここには何も表示されません。"}
      </p>
      {fake && users.length === 0 ? <p className="mt-6">メッセージはまだありません。</p> : null}
      {users.map((user) => (
        <section
          key={user.lineUserId}
          className="mt-6"
          aria-label={`LINEユーザー ${user.lineUserId}`}
        >
          <h2 className="font-bold break-all">LINEユーザー：{user.lineUserId}</h2>
          <ol className="mt-3 flex flex-col gap-4">
            {user.messages.map((message) => (
              <li key={message.id} className="rounded-lg border border-neutral-300 p-4">
                <p className="text-sm text-neutral-700">{formatDateTime(message.at)}</p>
                {message.texts.map((text, index) => (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one push, in order
                    key={index}
                    className="mt-2 whitespace-pre-wrap break-all text-sm"
                  >
                    {text.split(URL_PATTERN).map((part, i) =>
                      part.startsWith("http") ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
                        <a key={i} href={part} className="text-brand-700 underline">
                          {part}
                        </a>
                      ) : (
                        part
                      ),
                    )}
                  </div>
                ))}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
