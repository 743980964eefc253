/**
 * A FIFO lock for the one PGlite session: whoever holds it owns the session
 * until it releases, and waiters are served in order of arrival.
 */
export class SessionLock {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  get queueLength(): number {
    return this.waiting;
  }

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    this.waiting++;
    await previous;
    this.waiting--;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }
}
