/** Settle every promise or give up on it at the deadline, never hanging and never throwing. */
export type Settled<T> = { ok: true; value: T } | { ok: false; reason: 'failed' | 'timeout'; error?: unknown };

export function settleWithin<T>(promises: Promise<T>[], timeoutMs: number): Promise<Settled<T>[]> {
  return new Promise((resolve) => {
    const outcomes: (Settled<T> | undefined)[] = new Array(promises.length);
    let pending = promises.length;
    const finish = () => {
      clearTimeout(timer);
      resolve(Array.from(outcomes, (outcome): Settled<T> => outcome ?? { ok: false, reason: 'timeout' }));
    };
    const timer = setTimeout(finish, Math.max(0, timeoutMs));
    if (pending === 0) return finish();
    promises.forEach((promise, index) => {
      promise.then(
        (value) => {
          outcomes[index] = { ok: true, value };
          if (--pending === 0) finish();
        },
        (error: unknown) => {
          outcomes[index] = { ok: false, reason: 'failed', error };
          if (--pending === 0) finish();
        },
      );
    });
  });
}
