export const themes = ["light", "dark", "system"] as const;
export type Theme = (typeof themes)[number];

/** SPEC.md §9: light unless the visitor chose otherwise. */
export const DEFAULT_THEME: Theme = "light";
export const THEME_COOKIE = "theme";
export const THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const themeLabels: Record<Theme, string> = {
  light: "ライト",
  dark: "ダーク",
  system: "端末の設定",
};

export function isTheme(value: unknown): value is Theme {
  return themes.some((theme) => theme === value);
}
