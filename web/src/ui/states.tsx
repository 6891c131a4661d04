import type { ComponentChildren } from "preact";
import type { ApiError } from "../api";
import { relabel, type Loaded } from "./load";

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

/** Whether trying again may help: the network or the server failed, not the request itself. */
export function retryable(error: ApiError): boolean {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state state-empty">{children}</p>;
}

/**
 * Loading, error or the content drawn from the data; an empty list shows {@code empty}. Trying
 * again is offered only when it may help: a request the API refused (400, 403, 404) is refused
 * again, so an unknown Audit-ID says so without a "Reintentar".
 */
export function Loads<T>({ loaded, empty, labels, children }: {
  loaded: Loaded<T>;
  empty?: ComponentChildren;
  /** The screen's names for the API's fields, for the error's text (see {@link relabel}). */
  labels?: Record<string, string>;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error && loaded.data === undefined) {
    return <ErrorBox text={`No se pudo cargar: ${relabel(loaded.error.message, labels ?? {})}`}
      onRetry={retryable(loaded.error) ? loaded.reload : undefined} />;
  }
  if (loaded.data === undefined) {
    return <Loading />;
  }
  if (empty !== undefined && Array.isArray(loaded.data) && loaded.data.length === 0) {
    return <Empty>{empty}</Empty>;
  }
  return <>{children(loaded.data)}</>;
}
