/** Owners per page of /admin/owners: the list's query and its page links agree on it. */
export const OWNERS_PER_PAGE = 25;

/** Salons per page of /admin/salons. */
export const SALONS_PER_PAGE = 25;

/** The sortable columns of /admin/salons (the `sort` query value). */
export const adminSalonSorts = ["updated", "name", "kana", "area", "status", "created"] as const;
export type AdminSalonSort = (typeof adminSalonSorts)[number];

/** The direction a column of /admin/salons sorts in when first chosen: dates newest first, names A→Z. */
export const defaultSalonSortDirection = (sort: AdminSalonSort): "asc" | "desc" =>
  sort === "updated" || sort === "created" ? "desc" : "asc";
