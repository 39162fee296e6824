import L from "leaflet";
import "leaflet/dist/leaflet.css";
import type { MapTiles, SearchMap as SearchMapData } from "../../../server/salons/search-map-data";

/*
 * The map's drawing, in a module of its own that the map view imports on
 * demand (search-map.tsx): Leaflet and its CSS come with it, so no page's
 * first load carries them, the list view's included (decision 0058).
 */

export type SearchMapMarker = {
  number: number;
  slug: string;
  name: string;
  lat: number;
  lng: number;
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
 * Draws the results on a Leaflet map in `element`: numbered dots (no image
 * assets) named by the salon, each with a popup linking to it, the origin of
 * the distances as a small circle, fitted to the results. Returns the cleanup.
 */
export function drawSearchMap(
  element: HTMLElement,
  {
    tiles,
    markers,
    origin,
  }: { tiles: MapTiles; markers: SearchMapMarker[]; origin: SearchMapData["origin"] },
): () => void {
  // The wheel scrolls the page (the list is below the map on a phone); buttons and keys zoom.
  const map = L.map(element, { zoomControl: false, scrollWheelZoom: false });
  // The view first: Leaflet draws layers (and makes their elements) once the map has one.
  const points = markers.map((marker) => L.latLng(marker.lat, marker.lng));
  if (points.length > 0) {
    map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
  } else if (origin) {
    map.setView([origin.lat, origin.lng], 14);
  } else {
    map.setView([35.681, 139.767], 12);
  }
  L.control.zoom({ zoomInTitle: "拡大", zoomOutTitle: "縮小" }).addTo(map);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 19 }).addTo(map);
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
    // A button named by its number and salon, as the list reads them.
    added.getElement()?.setAttribute("aria-label", `${marker.number}. ${marker.name}`);
  }
  return () => map.remove();
}
