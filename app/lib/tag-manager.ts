type DataLayerEvent = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

/** SPEC.md §2/§7: one page-view event with url and title per route change. */
export function pushPageView(url: string, title: string) {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event: "page_view", page_location: url, page_title: title });
}

/** The container's bootstrap, as the tag manager documents it, for an inline script. */
export function tagManagerBootstrap(): string {
  return "window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});";
}

export function tagManagerScriptUrl(gtmId: string): string {
  return `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
}
