import { index, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * The one route table, in the order of SPEC.md §2. Each issue adds the
 * routes it builds; nothing is listed before it works.
 */
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("company", "routes/company.tsx"),
  route("contact", "routes/contact.tsx"),
  route("user-policy", "routes/user-policy.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),

  // /articles/about, /about-intern, /about-reward and /interview-01 are rows
  // of the articles table, served by one module.
  route("articles", "routes/articles.tsx"),
  route("articles/:slug", "routes/articles.$slug.tsx"),

  // Discovery (issue 3).
  route("area", "routes/area.tsx"),
  route("area/:id", "routes/area.$id.tsx"),
  route("salons/search", "routes/salons.search.tsx"),
  route("salons/:id", "routes/salons.$id.tsx"),
  route("salons/staffs/:param", "routes/salons.staffs.$param.tsx"),
  route("salons/feature/:param", "routes/salons.feature.$param.tsx"),
  route("salons/recommend/:param", "routes/salons.recommend.$param.tsx"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
] satisfies RouteConfig;
