import type { ComponentChildren } from "preact";
import type { Loaded } from "./load";

export function Loading({ label = "Cargando…" }: { label?: string }) {
  return (
    <p class="state state-loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function ErrorBox({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <div class="alert alert-error" role="alert">
      <span>{text}</span>
      {onRetry && (
        <button type="button" class="button button-small" onClick={onRetry}>
          Reintentar
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state state-empty">{children}</p>;
}

/** Loading, error or the content drawn from the data; an empty list shows {@code empty}. */
export function Loads<T>({ loaded, empty, children }: {
  loaded: Loaded<T>;
  empty?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error && loaded.data === undefined) {
    return <ErrorBox text={`No se pudo cargar: ${loaded.error.message}`} onRetry={loaded.reload} />;
  }
  if (loaded.data === undefined) {
    return <Loading />;
  }
  if (empty !== undefined && Array.isArray(loaded.data) && loaded.data.length === 0) {
    return <Empty>{empty}</Empty>;
  }
  return <>{children(loaded.data)}</>;
}
