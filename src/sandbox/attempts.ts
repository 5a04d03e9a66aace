import type { SeedAttempt } from "./seed.js";

// Simulation attempts as the sandbox stores them, and the two ways they change without a
// request saying so: an attempt recorded by a test (defaults filled in) and a STARTED attempt
// that completes a while after someone first looks (SandboxStateOptions.attemptCompletesAfterMs).

export type AttemptStatus = "COMPLETED" | "STARTED" | "INTERRUPTED";

export interface Attempt extends SeedAttempt {
  /** Hidden from completion-data until the clock reaches this time (ms); lets --wait tests run on a fake clock. */
  availableAt?: number;
}

export interface AttemptInput {
  status: AttemptStatus | (string & {});
  executionId?: string;
  startedAt?: string | null;
  completedAt?: string | null;
  completionTime?: number | null;
  score?: number | null;
  symScore?: number | null;
  accuracyScore?: number | null;
  keywordScore?: number | null;
  clickScore?: number | null;
  sentimentScores?: Record<string, number> | null;
  availableAt?: number;
}

/**
 * The attempt to store for `input`. A COMPLETED attempt gets plausible defaults for whatever
 * it leaves out; other states get nulls. `newExecutionId` is called only when none is given.
 */
export function attemptToStore(
  pair: { organizationId: string; userId: string; simulationId: string },
  input: AttemptInput,
  at: number,
  newExecutionId: () => string,
): Attempt {
  const completed = input.status === "COMPLETED";
  const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  const stored: Attempt = {
    executionId: input.executionId ?? newExecutionId(),
    organizationId: pair.organizationId,
    userId: pair.userId,
    simulationId: pair.simulationId,
    status: input.status,
    startedAt: pick(input.startedAt, new Date(at - 600_000).toISOString()),
    completedAt: pick(input.completedAt, completed ? new Date(at).toISOString() : null),
    completionTime: pick(input.completionTime, completed ? 600 : null),
    score: pick(input.score, completed ? 80 : null),
    symScore: pick(input.symScore, completed ? 82 : null),
    accuracyScore: pick(input.accuracyScore, completed ? 79.5 : null),
    keywordScore: pick(input.keywordScore, completed ? 75 : null),
    clickScore: pick(input.clickScore, null),
    sentimentScores: pick(input.sentimentScores, completed ? { positive: 0.6, neutral: 0.3, negative: 0.1 } : null),
  };
  if (input.availableAt !== undefined) stored.availableAt = input.availableAt;
  return stored;
}

/**
 * A trainee who started a simulation finishes it a while after someone first looks: the
 * first STARTED attempt of `mine` (one pair's attempts) becomes COMPLETED once `afterMs` has
 * passed since the first completion-data request for it, unless a completed attempt exists
 * already. `firstPolls` remembers that first request under `pollKey`.
 */
export function completeAfterFirstLook(
  mine: readonly Attempt[],
  firstPolls: Map<string, number>,
  pollKey: string,
  now: number,
  afterMs: number,
): void {
  const started = mine.find((a) => a.status === "STARTED");
  if (!started || mine.some((a) => a.status === "COMPLETED")) return;
  const first = firstPolls.get(pollKey);
  if (first === undefined) {
    firstPolls.set(pollKey, now);
    return;
  }
  if (now - first < afterMs) return;
  const completionTime = 600;
  Object.assign(started, {
    status: "COMPLETED",
    startedAt: new Date(now - completionTime * 1000).toISOString(),
    completedAt: new Date(now).toISOString(),
    completionTime,
    score: 84,
    symScore: 86,
    accuracyScore: 81.5,
    keywordScore: 78,
    sentimentScores: { positive: 0.62, neutral: 0.3, negative: 0.08 },
  });
  firstPolls.delete(pollKey);
}
