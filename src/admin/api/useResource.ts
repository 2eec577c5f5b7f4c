/** Loads a console resource and reloads it on demand or when its path changes. */
import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "./client.ts";

export interface Resource<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): void;
}

export function useResource<T>(path: string | null): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [round, setRound] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` asks for a reload
  useEffect(() => {
    if (path === null) return;
    let current = true;
    setLoading(true);
    api
      .get<T>(path)
      .then((loaded) => {
        if (!current) return;
        setData(loaded);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (current) setError(failure instanceof ApiError ? failure.message : String(failure));
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [path, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, loading, reload };
}
