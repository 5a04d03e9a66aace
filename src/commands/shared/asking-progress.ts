import type { BudgetTimes } from "../../api/rate/least-time.js";
import type { CommandContext } from "../../context.js";
import type { AskStep, PairAsker, PairAskerDeps } from "../../engines/progress/pair-asker.js";

// The progress line of the commands that ask completion through the progress engine
// (`progress`, `progress notify`): "progress 3/40 pairs · next request in 12 s · about 2 min
// left" on stderr while the engine asks, the next budget wait heard from the scheduler, the
// time left from the budget policy (services.budget()).

export interface AskingProgress {
  onStep: NonNullable<PairAskerDeps["onStep"]>;
  /** Binds the ETA to the asker's counts, once it exists. */
  follow(asker: PairAsker, expected: number): void;
  stop(): void;
}

export function askingProgress(ctx: CommandContext, budget: BudgetTimes): AskingProgress {
  const { services, printer } = ctx;
  const startedAt = services.clock.now();
  let progress: Awaited<ReturnType<CommandContext["printer"]["progress"]>> | undefined;
  let stopListening: (() => void) | undefined;
  let waitUntil: number | undefined;
  let step: AskStep = { label: "progress", done: 0, total: 0 };
  let asker: PairAsker | undefined;
  let expected = 0;

  const text = (): string => {
    const parts = [`${step.label} ${step.done}/${step.total} pairs`];
    const now = services.clock.now();
    if (waitUntil !== undefined && waitUntil > now) parts.push(`next request in ${budget.countdown(waitUntil - now)}`);
    const asked = asker?.asked ?? 0;
    const eta = budget.timeLeftText(budget.timeLeftMs("access", { sent: asked, startedAt, now, left: expected - asked }));
    if (eta) parts.push(eta);
    return parts.join(" · ");
  };

  return {
    onStep: async (next) => {
      step = next;
      progress ??= await printer.progress();
      stopListening ??= services.onWait((event) => {
        waitUntil = services.clock.now() + event.waitMs;
        progress?.update(text());
      });
      progress.update(text());
    },
    follow(a, n) {
      asker = a;
      expected = n;
    },
    stop() {
      stopListening?.();
      stopListening = undefined;
      progress?.done();
      progress = undefined;
    },
  };
}
