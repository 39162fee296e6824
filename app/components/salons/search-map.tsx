import { useEffect, useRef, useState } from "react";
import type { MapTiles, SearchMap as SearchMapData } from "../../../server/salons/search-map-data";
import type { SearchMapMarker } from "./search-map-leaflet";

export type { SearchMapMarker };

type Status = "server" | "loading" | "ready" | "failed";

const messages: Record<Exclude<Status, "ready">, string> = {
  server: "地図はJavaScriptで表示されます。同じサロンを一覧からお選びいただけます。",
  loading: "地図を読み込んでいます…",
  failed: "地図を読み込めませんでした。同じサロンを一覧からお選びください。",
};

/**
 * The results on a Leaflet map (decision 0058). The drawing module, with
 * Leaflet and its CSS, is imported in an effect, so it loads only when this
 * map view is shown; before (and without JavaScript) the box says where the
 * same results are.
 */
export function SearchMap({
  tiles,
  markers,
  origin,
}: {
  tiles: MapTiles;
  markers: SearchMapMarker[];
  origin: SearchMapData["origin"];
}) {
  const container = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<Status>("server");
  // One key for what is drawn: a new page of results redraws the map.
  const drawn = JSON.stringify([tiles, markers, origin]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `drawn` stands for tiles, markers and origin
  useEffect(() => {
    let cancelled = false;
    let remove: (() => void) | undefined;
    setStatus("loading");
    import("./search-map-leaflet")
      .then(({ drawSearchMap }) => {
        const element = container.current;
        if (cancelled || !element) return;
        remove = drawSearchMap(element, { tiles, markers, origin });
        setStatus("ready");
      })
      .catch(() => {
        if (!cancelled) setStatus("failed");
      });
    return () => {
      cancelled = true;
      remove?.();
    };
  }, [drawn]);
  return (
    <div className="relative h-72 overflow-hidden rounded-lg border border-neutral-200 bg-neutral-50 md:sticky md:top-4 md:h-[32rem]">
      <section
        ref={container}
        aria-label="検索結果の地図（番号は一覧の番号です）"
        className="h-full w-full"
      />
      {status === "ready" ? null : (
        <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-neutral-700">
          {messages[status]}
        </p>
      )}
    </div>
  );
}
