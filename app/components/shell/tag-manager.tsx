import { useEffect } from "react";
import { useLocation } from "react-router";
import { pushPageView, tagManagerBootstrap, tagManagerScriptUrl } from "../../lib/tag-manager";

/** The container script, only when GTM_ID is configured. */
export function TagManagerScript({ gtmId, nonce }: { gtmId: string | null; nonce?: string }) {
  if (!gtmId) return null;
  return (
    <>
      <script
        nonce={nonce}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: fixed bootstrap without user input
        dangerouslySetInnerHTML={{ __html: tagManagerBootstrap() }}
      />
      <script async nonce={nonce} src={tagManagerScriptUrl(gtmId)} />
    </>
  );
}

/**
 * Pushes a page view after every committed route change (and the first
 * load). Effects run after React Router's <Meta> has set the new title.
 */
export function usePageViews() {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one event per location change
  useEffect(() => {
    pushPageView(window.location.href, document.title);
  }, [location.key]);
}
