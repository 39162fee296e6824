import { Form } from "react-router";

const labels: Record<string, string> = { google: "Google", line: "LINE" };

/**
 * Buttons for the external providers the server has configured; a plain
 * form post to /signin, so it works before JavaScript loads.
 */
export function ExternalSignIn({
  providers,
  redirectTo,
}: {
  providers: string[];
  redirectTo?: string;
}) {
  if (providers.length === 0) return null;
  return (
    <section aria-labelledby="external-sign-in" className="flex flex-col gap-3">
      <h2 id="external-sign-in" className="font-bold">
        ほかのサービスのアカウントで続ける
      </h2>
      {providers.map((provider) => (
        <Form key={provider} method="post" action="/signin">
          <input type="hidden" name="intent" value="external" />
          <input type="hidden" name="provider" value={provider} />
          {redirectTo ? <input type="hidden" name="redirect" value={redirectTo} /> : null}
          <button
            type="submit"
            className="w-full rounded-lg border border-neutral-500 bg-white px-6 py-3 font-bold hover:bg-neutral-100"
          >
            {labels[provider] ?? provider}でログイン
          </button>
        </Form>
      ))}
    </section>
  );
}
