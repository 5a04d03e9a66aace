import type { BudgetTimes } from "../../api/rate/least-time.js";
import type { WaitEvent } from "../../api/rate/scheduler.js";
import type { Clock } from "../../clock.js";
import type { DateRange } from "../../domain/date-windows.js";
import type { Progress } from "../../output/progress.js";

// reports' progress on stderr (a spinner on a terminal, a line every 30 s without one — output/progress.ts; nothing with -q).

/**
 * The spinner line: kind, window i of n, overall count, the scheduler's next wait counting
 * down, and an estimate of the time left. The estimate is the larger of the pace so far and
 * what the reports budget allows for the requests still to send (the first ten requests go
 * at once, so the pace alone would promise far too much).
 */
export class ReportProgress {
  private done = 0;
  private fetched = 0;
  private fetchTimeMs = 0;
  private windowStartedAt = 0;
  private waitUntil: number | undefined;
  private waitReason: WaitEvent["reason"] = "budget";
  private current = "";
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly spinner: Progress,
    private readonly clock: Clock,
    private toFetch: number,
    private readonly total: number,
    live: boolean,
    private readonly budget: BudgetTimes,
  ) {
    // Only a live spinner needs the countdown refreshed; under cron nothing is drawn.
    if (live) {
      this.timer = setInterval(() => this.render(), 1000);
      this.timer.unref();
    }
  }

  window(kind: string, index: number, count: number, window: DateRange): void {
    this.current = `${kind} · window ${index + 1} of ${count} (${window.startDate}..${window.endDate})`;
    this.windowStartedAt = this.clock.now();
    this.waitUntil = undefined;
    this.render();
  }

  /** Clears the spinner's line so that a line can be written; the next update() redraws it. */
  pause(): void {
    this.spinner.done();
  }

  oneMoreFetch(): void {
    this.toFetch++;
  }

  waiting(event: WaitEvent): void {
    this.waitUntil = this.clock.now() + event.waitMs;
    this.waitReason = event.reason;
    this.render();
  }

  windowDone(fetched: boolean): void {
    this.done++;
    if (fetched) {
      this.fetched++;
      this.fetchTimeMs += this.clock.now() - this.windowStartedAt;
    }
    this.waitUntil = undefined;
  }

  private render(): void {
    const now = this.clock.now();
    const parts = [this.current, `${this.done} of ${this.total} done`];
    if (this.waitUntil !== undefined && this.waitUntil > now) {
      const wait = this.budget.countdown(this.waitUntil - now);
      parts.push(this.waitReason === "budget" ? `next report request in ${wait}` : `retrying in ${wait}`);
    }
    const eta = Math.max(this.etaMs() ?? 0, (this.waitUntil ?? 0) - now);
    const timeLeft = this.budget.timeLeftText(eta);
    if (timeLeft) parts.push(timeLeft);
    this.spinner.update(parts.join(" · "));
  }

  private etaMs(): number | undefined {
    const left = Math.max(0, this.toFetch - this.fetched);
    if (left === 0) return undefined;
    const pace = this.fetched > 0 ? (this.fetchTimeMs / this.fetched) * left : 0;
    const budget = this.budget.leastMs("reports", left);
    const estimate = Math.max(pace, budget);
    return estimate > 0 ? estimate : undefined;
  }

  stop(text?: string): void {
    if (this.timer) clearInterval(this.timer);
    this.spinner.done(text);
  }
}
