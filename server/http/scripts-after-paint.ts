import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

const DEFERRED_PRELOAD = "x-after-paint-modulepreload";
const DEFERRED_MODULE = "text/x-after-paint-module";

/**
 * Runs after the first paint: turns the held-back preloads into real ones
 * and the held-back module script (React Router's, which imports the route
 * modules and starts hydration) into a running one, copying its nonce. After
 * DOMContentLoaded, the next frame and a task: the first screen is painted
 * by then. A hidden tab gets no frames, hence the timer as well.
 */
const BOOT = `(()=>{let done=false;const go=()=>{if(done)return;done=true;for(const l of document.querySelectorAll('link[rel="${DEFERRED_PRELOAD}"]')){const n=document.createElement("link");n.rel="modulepreload";n.href=l.getAttribute("href");n.nonce=l.nonce;document.head.append(n)}for(const o of document.querySelectorAll('script[type="${DEFERRED_MODULE}"]')){const s=document.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;o.replaceWith(s)}};const later=()=>{requestAnimationFrame(()=>setTimeout(go,0));setTimeout(go,300)};document.readyState==="loading"?document.addEventListener("DOMContentLoaded",later,{once:true}):later()})()`;

const PRELOAD = /<link rel="modulepreload" /g;
const MODULE = /<script nonce="([^"]*)" type="module" async="">/g;

/**
 * Holds React Router's scripts back until the page has painted (issue 17).
 * The server renders the whole first screen, so no script is needed to show
 * it; but the ~120 KB of scripts, preloaded first thing in the head, took a
 * phone connection's bandwidth from the document and its images, and the
 * first paint waited for them (bench/README.md). The preloads are renamed so
 * the browser does not fetch them, the module script retyped so it does not
 * run, and a small nonce'd script restores both once the page is painted.
 * Hydration starts a frame later; the links and forms work without it.
 * React Router's <Scripts> has no option for this, hence a rewrite of the
 * streamed markup: each chunk's unfinished tag is kept for the next one.
 * Markup it does not recognise passes as it is, and then loads as before.
 */
export function scriptsAfterPaint(): Transform {
  let carry = "";
  const decoder = new StringDecoder("utf8");
  const rewrite = (text: string) =>
    text
      .replace(PRELOAD, `<link rel="${DEFERRED_PRELOAD}" `)
      .replace(
        MODULE,
        (_tag, nonce: string) =>
          `<script nonce="${nonce}">${BOOT}</script><script nonce="${nonce}" type="${DEFERRED_MODULE}">`,
      );
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = carry + decoder.write(chunk);
      const open = text.lastIndexOf("<");
      const cut = open !== -1 && text.indexOf(">", open) === -1 ? open : text.length;
      carry = text.slice(cut);
      callback(null, rewrite(text.slice(0, cut)));
    },
    flush(callback) {
      callback(null, rewrite(carry + decoder.end()));
    },
  });
}
