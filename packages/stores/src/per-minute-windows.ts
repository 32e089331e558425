import { errors } from '@evidence/schemas';
import { minuteIndexOf, secondsUntilNextMinute } from './billing-period.js';

/** Each tenant's fixed UTC-minute window of `rate_per_min` credits, kept in memory. */
export class PerMinuteWindows {
  private readonly windowsByTenant = new Map<string, { minuteIndex: number; spent: number }>();

  constructor(private readonly now: () => number) {}

  /** Takes `credits` from the current minute or throws 429; returns the minute it came from. */
  take(tenant: string, credits: number, ratePerMin: number): number {
    const now = this.now();
    const window = this.currentWindow(tenant, minuteIndexOf(now));
    if (window.spent + credits > ratePerMin) throw errors.rateLimited(secondsUntilNextMinute(now));
    window.spent += credits;
    return window.minuteIndex;
  }

  /** Gives credits back to the minute they came from; a minute already past keeps them. */
  refund(tenant: string, minuteIndex: number, credits: number): void {
    if (credits <= 0) return;
    const window = this.windowsByTenant.get(tenant);
    if (window === undefined || window.minuteIndex !== minuteIndex) return;
    window.spent = Math.max(0, window.spent - credits);
  }

  remaining(tenant: string, ratePerMin: number): number {
    const window = this.windowsByTenant.get(tenant);
    if (window === undefined || window.minuteIndex !== minuteIndexOf(this.now())) return ratePerMin;
    return Math.max(0, ratePerMin - window.spent);
  }

  private currentWindow(tenant: string, minuteIndex: number): { minuteIndex: number; spent: number } {
    const window = this.windowsByTenant.get(tenant);
    if (window !== undefined && window.minuteIndex === minuteIndex) return window;
    const fresh = { minuteIndex, spent: 0 };
    this.windowsByTenant.set(tenant, fresh);
    return fresh;
  }
}
