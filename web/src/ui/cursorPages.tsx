import { useEffect, useState } from "preact/hooks";
import { get, type ListPage } from "../api";
import { useLoad, type Loaded } from "./load";

/** How many rows a screen asks for at a time. */
export const PAGE_SIZE = 50;

export interface CursorPages<T> extends Loaded<ListPage<T>> {
  /** 1 for the first page. */
  page: number;
  next: () => void;
  previous: () => void;
}

/**
 * A listing read page by page from the server ({@code limit} and {@code cursor}, filters in
 * {@code path}'s query): the cursors of the pages already seen are kept, so "Anterior" goes back
 * exactly; a change of {@code path} (another filter) starts again at the first page.
 */
export function useCursorPages<T>(path: string, limit = PAGE_SIZE): CursorPages<T> {
  const [trail, setTrail] = useState<{ path: string; cursors: string[] }>({ path, cursors: [] });
  const cursors = trail.path === path ? trail.cursors : [];
  useEffect(() => {
    // Forget the old filter's pages, so coming back to it starts at its first page too.
    if (trail.path !== path) {
      setTrail({ path, cursors: [] });
    }
  }, [path, trail.path]);
  const cursor = cursors.length ? cursors[cursors.length - 1] : "";
  const separator = path.includes("?") ? "&" : "?";
  const loaded = useLoad(() => get<ListPage<T>>(`${path}${separator}limit=${limit}${cursor
    ? `&cursor=${encodeURIComponent(cursor)}` : ""}`), [path, cursor, limit]);
  return {
    ...loaded,
    page: cursors.length + 1,
    next: () => {
      const following = loaded.data?.next_cursor;
      if (following) {
        setTrail({ path, cursors: [...cursors, following] });
      }
    },
    previous: () => setTrail({ path, cursors: cursors.slice(0, -1) }),
  };
}

export function CursorPager<T>({ pages, label }: { pages: CursorPages<T>; label: string }) {
  const hasMore = Boolean(pages.data?.next_cursor);
  if (pages.page <= 1 && !hasMore) {
    return null;
  }
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="button button-small" disabled={pages.page <= 1 || pages.loading}
        onClick={pages.previous}>← Anterior</button>
      <span aria-live="polite">Página {pages.page}</span>
      <button type="button" class="button button-small" disabled={!hasMore || pages.loading}
        onClick={pages.next}>Siguiente →</button>
    </nav>
  );
}
