export function Pager({ page, hasMore, onPage }: { page: number; hasMore: boolean; onPage: (page: number) => void }) {
  if (page <= 1 && !hasMore) {
    return null;
  }
  return (
    <nav class="pager" aria-label="Páginas">
      <button type="button" class="button button-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>← Anterior</button>
      <span>Página {page}</span>
      <button type="button" class="button button-small" disabled={!hasMore} onClick={() => onPage(page + 1)}>Siguiente →</button>
    </nav>
  );
}
