import { Link } from "react-router";

/** The trail above a page's heading; the last item is the current page. */
export function Breadcrumbs({ items }: { items: { name: string; path: string }[] }) {
  return (
    <nav aria-label="パンくずリスト" className="text-sm">
      <ol className="flex flex-wrap gap-1">
        {items.map((item, index) =>
          index === items.length - 1 ? (
            <li key={item.path} aria-current="page">
              {item.name}
            </li>
          ) : (
            <li key={item.path}>
              <Link to={item.path} className="underline">
                {item.name}
              </Link>
              <span aria-hidden="true"> ›</span>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
