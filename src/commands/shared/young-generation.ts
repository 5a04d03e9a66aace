import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

// The young generation of a long export, bounded as Node 20 and 22 bound it (docs/architecture.md,
// "Exports": "Memory on Node 24"). V8 grows the new space (two semi-spaces) by its growth factor
// each time as many bytes have survived scavenges as a semi-space holds, up to its maximum:
// 32 MiB on Node 20 and 22, 128 MiB on Node 24 (V8 13, without pointer compression). An export
// lets some bytes survive every scavenge (the batch in hand), so on Node 24 its new space ends
// at 128 MiB — most of it garbage awaiting the next scavenge — and peak RSS grew with the
// record count (161 MiB at 100 k, 265 MiB at 1 M). `--max-semi-space-size` is read once, when
// the heap is made; the growth factor is read at each growth. So once the new space has
// reached the size Node 20 and 22 stop at, the factor is set to 1 (no more growth), and put back
// when the export ends: V8's code caches carry a hash of the flags, and the code cache saved
// after the run (boot.ts) must match the next run's flags. Measured: CPU no higher with the
// bound than without (the same young generation Node 20 and 22 run every export with).

/** Node 20 and 22's most, both semi-spaces (a 16 MiB semi-space each). */
export const NEW_SPACE_BOUND = 32 * 1024 * 1024;
/** How often the new space is looked at: it takes several scavenges to grow once more. */
const CHECK_MS = 100;
/** V8's own, on Node 20, 22 and 24. */
const GROWTH_FACTOR = 2;

export interface YoungGenerationDeps {
  /** Bytes the new space holds now (both semi-spaces). */
  newSpaceBytes: () => number | undefined;
  setFlags: (flags: string) => void;
  /** What the user gave Node (execArgv and NODE_OPTIONS): a young generation sized there is theirs. */
  nodeFlags: readonly string[];
}

export const v8Deps = (): YoungGenerationDeps => ({
  newSpaceBytes: () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size,
  setFlags: setFlagsFromString,
  nodeFlags: [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)],
});

/**
 * Bounds the young generation until the returned function is called (then the flag is as it
 * was). Does nothing when the user sized the young generation or its growth themselves.
 */
export function boundYoungGeneration(deps: YoungGenerationDeps = v8Deps(), everyMs = CHECK_MS): () => void {
  if (deps.nodeFlags.some((flag) => /^--[a-z-_]*(semi[-_]space|young[-_]generation)/i.test(flag))) return () => {};
  let bounded = false;
  const release = (): void => {
    clearInterval(timer);
    process.off("exit", release);
    if (bounded) deps.setFlags(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
    bounded = false;
  };
  const check = (): void => {
    if ((deps.newSpaceBytes() ?? 0) < NEW_SPACE_BOUND) return;
    deps.setFlags("--semi-space-growth-factor=1");
    bounded = true;
    clearInterval(timer);
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  // Before boot.ts's listener saves the code cache, should the run end without `release`.
  process.prependOnceListener("exit", release);
  return release;
}
