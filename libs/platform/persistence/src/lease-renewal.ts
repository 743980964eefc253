/**
 * Runs `work` while renewing the lease of the claim it works under every
 * `renewEveryMs`, and stops renewing once the work has settled. A claim's
 * lease is short so that the work of a crashed process is taken over soon;
 * a live holder keeps it however long it runs. A failed renewal is not the
 * work's failure: at worst the lease lapses and a repetition takes the claim
 * over, which every claim already allows for.
 */
export async function whileRenewingLease<T>(renew: () => Promise<void>, renewEveryMs: number, work: () => Promise<T>): Promise<T> {
  const renewal = setInterval(() => void renew().catch(() => undefined), renewEveryMs);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
  }
}
