import type { PolicyPackSummary } from '@dsar/contracts';
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from './api';
import { useAuth } from './auth/auth';
import { jurisdictionsOf } from './jurisdictions';

/** One read of the packs per client (per sign-in): the list changes only when an administrator activates a pack. */
const known = new WeakMap<ApiClient, Promise<string[] | null>>();

/** The jurisdiction codes for a select; null while unknown or when the caller may not list the packs (a text field then). */
export function useJurisdictions(): string[] | null {
  const { api } = useAuth();
  const [codes, setCodes] = useState<string[] | null>(null);
  useEffect(() => {
    let pending = known.get(api);
    if (!pending) {
      pending = api.get<PolicyPackSummary[]>('/policies').then((r) => (r.ok && Array.isArray(r.data) ? jurisdictionsOf(r.data) : null));
      known.set(api, pending);
    }
    let live = true;
    void pending.then((list) => {
      if (live) setCodes(list);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return codes;
}
