import { useEffect, useRef, useState } from "react";
import type { MapTiles, SearchMap as SearchMapData } from "../../../server/salons/search-map-data";

export type SearchMapMarker = {
  number: number;
  slug: string;
  name: string;
  lat: number;
  lng: number;
};

type Status = "server" | "loading" | "ready" | "failed";

const messages: Record<Exclude<Status, "ready">, string> = {
  server: "地図はJavaScriptで表示されます。同じサロンを一覧からお選びいただけます。",
  loading: "地図を読み込んでいます…",
  failed: "地図を読み込めませんでした。同じサロンを一覧からお選びください。",
};

/** Leaflet writes the attribution as HTML: the configured text is shown as text. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );

/** The marker's numbered dot: markup Leaflet inserts, so its classes are written out here. */
const MARKER_CLASS =
  "flex items-center justify-center rounded-full border-2 border-white bg-brand-700 text-sm font-bold text-white shadow-md focus:outline-3 focus:outline-offset-1 focus:outline-neutral-900";

/**
 * The results on a Leaflet map (decision 0058). Leaflet and its CSS are
 * fetched by a dynamic import in an effect, so they load only when this map
 * view is shown: the list view's first-load JavaScript does not carry them.
 * Markers are numbered dots (no image assets) named by the salon, each with
 * a popup linking to the salon; the map fits them all.
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
    let map: import("leaflet").Map | undefined;
    setStatus("loading");
    (async () => {
      const [leaflet] = await Promise.all([import("leaflet"), import("leaflet/dist/leaflet.css")]);
      // The package is UMD: the bundler hands it over as the default export.
      const L = leaflet.default ?? (leaflet as unknown as typeof leaflet.default);
      const element = container.current;
      if (cancelled || !element) return;
      map = L.map(element, { zoomControl: false, scrollWheelZoom: false });
      L.control.zoom({ zoomInTitle: "拡大", zoomOutTitle: "縮小" }).addTo(map);
      map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
      L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 19 }).addTo(
        map,
      );
      if (origin) {
        L.circleMarker([origin.lat, origin.lng], {
          radius: 7,
          weight: 3,
          color: "#ffffff",
          fillColor: "#1d4ed8",
          fillOpacity: 1,
          interactive: false,
        }).addTo(map);
      }
      for (const marker of markers) {
        const link = document.createElement("a");
        link.href = `/salons/${marker.slug}`;
        link.textContent = marker.name;
        link.className = "font-bold underline";
        const added = L.marker([marker.lat, marker.lng], {
          icon: L.divIcon({
            className: MARKER_CLASS,
            html: `<span aria-hidden="true">${marker.number}</span>`,
            iconSize: [30, 30],
          }),
          title: marker.name,
          riseOnHover: true,
        })
          .bindPopup(link)
          .addTo(map);
        added.getElement()?.setAttribute("aria-label", `${marker.number}. ${marker.name}`);
      }
      const points = markers.map((marker) => L.latLng(marker.lat, marker.lng));
      if (points.length > 0) {
        map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
      } else if (origin) {
        map.setView([origin.lat, origin.lng], 14);
      }
      setStatus("ready");
    })().catch(() => {
      if (!cancelled) setStatus("failed");
    });
    return () => {
      cancelled = true;
      map?.remove();
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
