// A table that becomes a list of cards on a phone: each row a card, each cell under its column's
// name, the row's actions visible instead of beyond a sideways scroll. On wider screens it is a
// table that scrolls in its own box when it does not fit.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

/** Column headings that name no column a person reads (the actions'): their cells show no label. */
const UNLABELLED = new Set(["Acciones"]);

export function CardTable({ label, className, testId, children }: {
  /** What the table lists; its region is named "<label> (tabla)", apart from its section's heading (axe: landmark-unique). */
  label: string;
  className?: string;
  testId?: string;
  children: ComponentChildren;
}) {
  const table = useRef<HTMLTableElement>(null);
  // Each cell carries its column's name for the card layout (CSS shows it before the value).
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) {
      return;
    }
    const heads = [...element.querySelectorAll("thead th")].map((head) => head.textContent?.trim() ?? "");
    element.querySelectorAll("tbody tr").forEach((row) => {
      [...row.children].forEach((cell, index) => {
        if (!cell.hasAttribute("colspan")) {
          const head = heads[index] ?? "";
          cell.setAttribute("data-label", UNLABELLED.has(head) ? "" : head);
        }
      });
    });
  });
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={`${label} (tabla)`}>
      <table ref={table} class={`cards${className ? ` ${className}` : ""}`} data-testid={testId}>{children}</table>
    </div>
  );
}
