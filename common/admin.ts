/** Owners per page of /admin/owners: the list's query and its page links agree on it. */
export const OWNERS_PER_PAGE = 25;
