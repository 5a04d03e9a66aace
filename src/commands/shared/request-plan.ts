import { BudgetTimes } from "../../api/rate/least-time.js";
import { formatRateLimit, type RateLimits, type RequestGroup } from "../../api/rate/limits.js";

// What a --dry-run tells about the run it stands for (docs/cli-contract.md "CI and cron":
// "--dry-run also tells how many requests the run needs per budget and the least time they
// take"). The least time is what the budgets allow from a fresh start — the first `limit`
// requests of a group at once, each further `limit` one window later with the scheduler's
// margin — not counting the answers' own time, retries, or a budget already partly used by
// another run (the shared rate store). The arithmetic and the wording are the budget policy's
// (api/rate/least-time.ts), so every --dry-run says the same for the same requests.

export interface RequestNeeds {
  /** Requests per budget; a group left out (or 0) is not used. */
  requests: Partial<Record<RequestGroup, number>>;
}

export interface RequestPlanValue {
  requests: Partial<Record<RequestGroup, { requests: number; budget: string; leastSeconds: number }>>;
  leastSeconds: number;
}

/** The plan as a JSON value (for -o json) and one line for people. */
export function describeRequestPlan(needs: RequestNeeds, limits: RateLimits): { value: RequestPlanValue; text: string } {
  const budget = new BudgetTimes(limits);
  const value: RequestPlanValue = { requests: {}, leastSeconds: 0 };
  const parts: string[] = [];
  let leastMs = 0;
  for (const group of ["reports", "access"] as const) {
    const count = needs.requests[group] ?? 0;
    if (count <= 0) continue;
    const rate = limits[group];
    const ms = budget.leastMs(group, count);
    leastMs = Math.max(leastMs, ms);
    value.requests[group] = { requests: count, budget: formatRateLimit(rate), leastSeconds: Math.ceil(ms / 1000) };
    parts.push(`${count} ${group} request${count === 1 ? "" : "s"} (budget ${formatRateLimit(rate)})`);
  }
  value.leastSeconds = Math.ceil(leastMs / 1000);
  if (parts.length === 0) return { value, text: "no request to send" };
  const least =
    leastMs > 0 ? `at least ${budget.format(leastMs)} by the budget${parts.length > 1 ? "s" : ""}` : "no wait for the budget";
  return { value, text: `needs ${parts.join(" and ")}: ${least}` };
}
