/** The billing period is the UTC calendar month; it starts at its first millisecond. */
export function periodStartMsOf(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

export function nextPeriodStartMsOf(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

export const MINUTE_MS = 60_000;

/** Index of the UTC minute holding `nowMs`; the per-minute window is this fixed minute. */
export function minuteIndexOf(nowMs: number): number {
  return Math.floor(nowMs / MINUTE_MS);
}

/** What `retry-after` says when a minute is spent: never 0, a client would retry at once. */
export function secondsUntilNextMinute(nowMs: number): number {
  const nextMinuteStartsAt = (minuteIndexOf(nowMs) + 1) * MINUTE_MS;
  return Math.max(1, Math.ceil((nextMinuteStartsAt - nowMs) / 1000));
}
