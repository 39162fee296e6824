import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { scriptsAfterPaint } from "./scripts-after-paint";

const page =
  '<html><head><link rel="modulepreload" href="/assets/a.js" nonce="n1"/><link rel="stylesheet" href="/x.css"/></head>' +
  '<body><p>予約は24時間</p><script nonce="n1">window.x = 1 < 2;</script><script nonce="n1" type="module" async="">import "/assets/a.js";</script></body></html>';

async function rewrite(chunks: Buffer[]) {
  return text(Readable.from(chunks).pipe(scriptsAfterPaint()));
}

describe("scriptsAfterPaint", () => {
  it("holds the preloads and the module script back, with a nonce'd script to restore them", async () => {
    const out = await rewrite([Buffer.from(page)]);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain(
      '<link rel="x-after-paint-modulepreload" href="/assets/a.js" nonce="n1"/>',
    );
    expect(out).not.toContain('type="module" async');
    expect(out).toMatch(
      /<script nonce="n1">\(\(\)=>\{.*requestAnimationFrame.*\}\)\(\)<\/script><script nonce="n1" type="text\/x-after-paint-module">import "\/assets\/a.js";<\/script>/,
    );
    // Everything else as it was.
    expect(out).toContain('<link rel="stylesheet" href="/x.css"/>');
    expect(out).toContain("<p>予約は24時間</p>");
    expect(out).toContain('<script nonce="n1">window.x = 1 < 2;</script>');
  });

  it("gives the same page however the stream is cut, even inside a tag or a character", async () => {
    const bytes = Buffer.from(page);
    const whole = await rewrite([bytes]);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await rewrite([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toBe(
        whole,
      );
    }
  });
});
