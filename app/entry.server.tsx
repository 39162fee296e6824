import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { appContext } from "../server/context";
import { isCrawler } from "../server/http/crawler";
import { describeError } from "../server/logger";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, log } = loadContext.get(appContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers get the whole page at once; people get the shell first.
    const readyOption: keyof RenderToPipeableStreamOptions = isCrawler(
      request.headers.get("user-agent"),
    )
      ? "onAllReady"
      : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("streaming render error", describeError(error));
        },
      },
    );
  });
}

/** Unexpected loader, action and render errors: logged with the request id, never shown. */
export function handleError(
  error: unknown,
  { request, context }: { request: Request; context: RouterContextProvider },
) {
  // Thrown responses (404 and friends) are answers, not faults.
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  const { log } = context.get(appContext);
  if (isActionOriginRefusal(error, request)) {
    // Anyone can send such a post: a warning with no stack, or outsiders write our error log.
    log.warn("form post refused: its Origin does not match this site", {
      url: request.url,
      method: request.method,
    });
    return;
  }
  log.error("route error", { url: request.url, ...describeError(error) });
}

/**
 * React Router's own check of a form post's Origin against the request URL
 * (throwIfPotentialCSRFAttack) answers 400 and hands its refusal here: on a
 * document request with its own message, on a `.data` request as a plain
 * "Bad Request". Posts our check passes can still fail it (a foreign Origin
 * with `Sec-Fetch-Site: same-origin`, an Origin that is not a URL).
 */
function isActionOriginRefusal(error: unknown, request: Request) {
  if (!(error instanceof Error) || request.method === "GET" || request.method === "HEAD") {
    return false;
  }
  return (
    error.message.endsWith("Aborting the action.") ||
    (error.message === "Bad Request" && new URL(request.url).pathname.endsWith(".data"))
  );
}
