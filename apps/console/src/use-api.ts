import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiResult } from './api';
import { useAuth } from './auth/auth';

export interface Loaded<T> {
  /** The latest answer; null until the first one. */
  result: ApiResult<T> | null;
  loading: boolean;
  /** Reads again (after an action changed what was read). */
  reload: () => void;
}

/**
 * A GET of the API, read again when `key` changes (the path and query in words) or on `reload`. An answer that
 * arrives after a newer call started is dropped, so a slow page never overwrites a newer one. Another path or query
 * clears the answer shown, unless `keepWhileLoading` (the queue keeps its rows until the next page comes).
 */
export function useApiGet<T>(path: string | null, query?: URLSearchParams, options: { keepWhileLoading?: boolean } = {}): Loaded<T> {
  const { api } = useAuth();
  const [result, setResult] = useState<ApiResult<T> | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  const shownKey = useRef<string | null>(null);
  const key = path === null ? null : `${path}?${query?.toString() ?? ''}`;
  useEffect(() => {
    if (path === null) return;
    const call = ++latest.current;
    // Something else is read: the old answer goes (a reload keeps it on screen until the new one comes).
    if (shownKey.current !== key) {
      shownKey.current = key;
      if (!options.keepWhileLoading) setResult(null);
    }
    setLoading(true);
    void api.get<T>(path, query).then((answer) => {
      if (call !== latest.current) return;
      setResult(answer);
      setLoading(false);
    });
    // `key` stands for path and query.
  }, [api, key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { result, loading, reload };
}
