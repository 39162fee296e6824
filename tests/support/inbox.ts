/**
 * Collects values pushed by callbacks (notifications, stream events) so a
 * test can await the next one that matches, guarded by a timeout that fails
 * the test instead of hanging it. No sleeps: the promise settles the moment
 * the value arrives.
 */
export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters = new Set<{ match: (item: T) => boolean; resolve: (item: T) => void }>();

  push = (item: T) => {
    for (const waiter of this.waiters) {
      if (waiter.match(item)) {
        this.waiters.delete(waiter);
        waiter.resolve(item);
        return;
      }
    }
    this.items.push(item);
  };

  /** The first unconsumed value that matches, waiting up to `timeoutMs` for it. */
  next(match: (item: T) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
    const index = this.items.findIndex(match);
    if (index >= 0) return Promise.resolve(this.items.splice(index, 1)[0] as T);
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (item: T) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`nothing matching arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Values received and not consumed by next(). */
  pending(): readonly T[] {
    return this.items;
  }
}
