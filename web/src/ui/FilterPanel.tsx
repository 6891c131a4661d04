// The filters of a listing. On a phone they fold behind one button, so the first results are on
// the first screen instead of after nine fields; on a wider screen they stay open.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

const NARROW = "(max-width: 40rem)";

export function FilterPanel({ id, active, children }: { id: string; active: number; children: ComponentChildren }) {
  const [open, setOpen] = useState(() => !window.matchMedia(NARROW).matches);
  return (
    <section class="card filter-panel" aria-labelledby={id}>
      <details open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
        <summary><h2 id={id}>Filtros</h2>{active > 0 && <span class="badge">{active === 1 ? "1 activo" : `${active} activos`}</span>}</summary>
        {children}
      </details>
    </section>
  );
}
