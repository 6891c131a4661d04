import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "../api";

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads with {@code fetcher} whenever {@code key} changes; keeps the last data while reloading. */
export function useLoad<T>(fetcher: () => Promise<T>, key: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setLoading(true);
    fetcher()
      .then((value) => {
        if (current) {
          setData(value);
          setError(undefined);
        }
      })
      .catch((failure: unknown) => {
        if (current) {
          setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)));
        }
      })
      .finally(() => {
        if (current) {
          setLoading(false);
        }
      });
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...key, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { data, error, loading, reload };
}

/**
 * A failure's text for the screen. The API names its fields as the API does ("ttl no válido",
 * "expires_at no válido", "page …"); a screen passes {@code labels} to name them as its own
 * labels do instead («Duración» no válido).
 */
export function message(failure: unknown, labels: Record<string, string> = {}): string {
  const text = relabel(failure instanceof Error ? failure.message : String(failure), labels);
  // The API's messages start in lower case (they are parts of sentences); on screen each is one.
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function relabel(text: string, labels: Record<string, string>): string {
  let result = text;
  for (const [field, label] of Object.entries(labels)) {
    result = result.replace(new RegExp(`(^|[\\s(])${field}(?=[\\s=:]|$)`, "g"), `$1«${label}»`);
  }
  return result;
}
