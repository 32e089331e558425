/**
 * Time parameters of the evidence capabilities: `max_age` (a window length) and `since` (an
 * instant in the past). Both accept what an agent naturally writes and resolve to unix seconds.
 *
 * - A duration is a whole number with an optional unit: `90` or `90s` (seconds), `30m`, `6h`,
 *   `7d`, `2w`.
 * - `since` is either an absolute unix timestamp or an amount of time ago. A bare number of at
 *   least {@link ABSOLUTE_SINCE_MIN} (10^9, September 2001) is an absolute timestamp; a smaller
 *   bare number is seconds ago (10^9 seconds is almost 32 years, longer than any index here
 *   spans). A number with a unit (`1d`, `12h`, `2w`, optionally followed by ` ago`) is always
 *   ago. The instant must lie in the past.
 */

export const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;

/** Bare numbers from here up are absolute unix seconds in `since`; below it, seconds ago. */
export const ABSOLUTE_SINCE_MIN = 1_000_000_000;

const DURATION = /^(\d{1,12})\s*([smhdw])?$/i;

/** Seconds of a duration (`90`, `90s`, `30m`, `6h`, `7d`, `2w`), or null when it does not parse. */
export function parseDurationSeconds(raw: string | number): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : null;
  const match = DURATION.exec(raw.trim());
  if (!match) return null;
  const unit = (match[2]?.toLowerCase() ?? 's') as keyof typeof DURATION_UNITS;
  const seconds = Number(match[1]) * DURATION_UNITS[unit];
  return Number.isSafeInteger(seconds) ? seconds : null;
}

/** A duration as the shortest exact text (`604800` -> `1w`, `90` -> `90s`). */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = DURATION_UNITS[unit];
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * The unix second a `since` value names, measured from `nowSeconds`; null when it does not
 * parse or does not lie in the past.
 */
export function resolveSince(raw: string | number, nowSeconds: number): number | null {
  const text = String(raw).trim().replace(/\s+ago$/i, '');
  let instant: number;
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) return null;
    instant = value >= ABSOLUTE_SINCE_MIN ? value : nowSeconds - value;
  } else {
    const ago = parseDurationSeconds(text);
    if (ago === null) return null;
    instant = nowSeconds - ago;
  }
  if (instant >= nowSeconds || instant < 0) return null;
  return instant;
}
