import { createHash } from "node:crypto";
import type { SeedAttempt } from "./seed.js";

// Attempts that move over time, for `progress`: a pair with no recorded attempt,
// of a user with none recorded anywhere (so user-demo's seeded attempts stay exactly as the
// README describes them), follows a script chosen by a hash of (org, user, simulation) — the
// same on every run and machine — counted from the first completion-data request for it:
//
//   kind 0  never starts                                   → not-started (or overdue)
//   kind 1  started at the first request, never finished   → in-progress
//   kind 2  started, completes after 1–4 steps             → in-progress, then completed
//   kind 3  interrupted once, then completes after 1–4 steps (two attempts)
//   kind 4  completed a day before the first request       → completed
//
// `stepMs` is SandboxStateOptions.scriptedAttemptStepMs (30 s under --sandbox).

export interface PairScript {
  kind: 0 | 1 | 2 | 3 | 4;
  /** For kinds 2 and 3: completes this many steps after the first request. */
  steps: number;
}

export function pairScript(org: string, userId: string, simulationId: string): PairScript {
  const digest = createHash("sha256").update(`${org}\u0000${userId}\u0000${simulationId}`).digest();
  return { kind: (digest[0]! % 5) as PairScript["kind"], steps: 1 + (digest[1]! % 4) };
}

type Ids = Pick<SeedAttempt, "organizationId" | "userId" | "simulationId">;

const NONE = {
  completedAt: null,
  completionTime: null,
  score: null,
  symScore: null,
  accuracyScore: null,
  keywordScore: null,
  clickScore: null,
  sentimentScores: null,
};

function completed(ids: Ids, executionId: string, at: number, score: number): SeedAttempt {
  return {
    ...ids,
    executionId,
    status: "COMPLETED",
    startedAt: new Date(at - 900_000).toISOString(),
    completedAt: new Date(at).toISOString(),
    completionTime: 900,
    score,
    symScore: score + 2,
    accuracyScore: score - 1.5,
    keywordScore: score - 4,
    clickScore: null,
    sentimentScores: { positive: 0.6, neutral: 0.3, negative: 0.1 },
  };
}

/** The attempts a scripted pair shows at `now`, first asked at `firstAsked`. */
export function scriptedAttempts(ids: Ids, firstAsked: number, now: number, stepMs: number): SeedAttempt[] {
  const { kind, steps } = pairScript(ids.organizationId, ids.userId, ids.simulationId);
  const tag = createHash("sha256").update(`${ids.userId}\u0000${ids.simulationId}`).digest("hex").slice(0, 8);
  const started = new Date(firstAsked).toISOString();
  const score = 60 + (Number.parseInt(tag.slice(0, 2), 16) % 40);
  if (kind === 0) return [];
  if (kind === 4) return [completed(ids, `exec-s${tag}`, firstAsked - 86_400_000, score)];
  const attempts: SeedAttempt[] = [];
  if (kind === 3) {
    attempts.push({
      ...ids,
      ...NONE,
      executionId: `exec-s${tag}-1`,
      status: "INTERRUPTED",
      startedAt: new Date(firstAsked - 3_600_000).toISOString(),
    });
  }
  const doneAt = firstAsked + steps * stepMs;
  if (kind !== 1 && now >= doneAt) attempts.push(completed(ids, `exec-s${tag}`, doneAt, score));
  else attempts.push({ ...ids, ...NONE, executionId: `exec-s${tag}`, status: "STARTED", startedAt: started });
  return attempts;
}
