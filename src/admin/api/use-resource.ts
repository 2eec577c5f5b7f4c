/**
 * Loads a console resource and reloads it on demand or when what it reads
 * changes; a screen that learns the newer record from a write's answer puts
 * it in place with `setData` instead of asking again.
 */
import { type Dispatch, type SetStateAction, useCallback, useEffect, useState } from "react";
import { type Answer, ApiError, api, type Read, type ReadKey } from "./client.ts";

export interface Resource<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): void;
  setData: Dispatch<SetStateAction<T | undefined>>;
}

/** Loads what `request` reads (made by `read`); null loads nothing. */
export function useResource<K extends ReadKey>(request: Read<K> | null): Resource<Answer<K>> {
  const [data, setData] = useState<Answer<K>>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(request !== null);
  const [round, setRound] = useState(0);
  // Each render makes a new request; its key and URL say whether it asks for something else.
  const key = request?.key;
  const url = request?.url;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` asks for a reload
  useEffect(() => {
    if (key === undefined || url === undefined) return;
    let current = true;
    setLoading(true);
    api
      .load({ key, url })
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
  }, [key, url, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, loading, reload, setData };
}
