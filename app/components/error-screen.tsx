import { Link } from "react-router";

/**
 * The two error screens of SPEC.md §2: 404, and every other status. A
 * refused request (4xx with a message from the server) says what was wrong.
 */
export function ErrorScreen({ status, message }: { status: number; message?: string }) {
  const notFound = status === 404;
  const refused = !notFound && status < 500 && message !== undefined;
  return (
    <section
      aria-labelledby="error-heading"
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-12 text-center"
    >
      <img
        src={notFound ? "/images/not-found.svg" : "/images/error.svg"}
        alt=""
        width={480}
        height={320}
        className="h-auto w-full max-w-xs"
      />
      <h1 id="error-heading" className="mt-6 text-2xl font-bold">
        {notFound
          ? "ページが見つかりません"
          : refused
            ? "リクエストを受け付けられませんでした"
            : "問題が発生しました"}
      </h1>
      {notFound ? (
        <>
          <p className="mt-4 leading-7 text-neutral-700">
            指定されたページ（URL）は見つかりませんでした。
            <br />
            お手数ですが、トップページからお探しください。
          </p>
          <Link
            to="/"
            className="mt-8 block w-full rounded-lg border-2 border-brand-700 px-6 py-4 text-lg font-bold text-brand-700 hover:bg-brand-50"
          >
            トップへ
          </Link>
        </>
      ) : refused ? (
        <>
          <p className="mt-4 leading-7 text-neutral-700">{message}</p>
          <Link
            to="/"
            className="mt-8 block w-full rounded-lg border-2 border-brand-700 px-6 py-4 text-lg font-bold text-brand-700 hover:bg-brand-50"
          >
            トップへ
          </Link>
        </>
      ) : (
        <p className="mt-4 leading-7 text-neutral-700">
          現在、一時的にアクセスできない状態です。
          <br />
          しばらく時間をおいてから、再度お試しください。
        </p>
      )}
    </section>
  );
}
