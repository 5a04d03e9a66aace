import type { Clock } from "../clock.js";
import { DirectoryStateStore } from "./directory-store.js";
import type { StateLocation } from "./location.js";
import type { StateStore } from "./store.js";

// Picks the backend of a location (docs/state.md). The PostgreSQL one, and `pg` with it, is
// loaded only for a postgres:// location.

export async function openStateStore(
  location: StateLocation,
  clock: Clock,
  lockClock: Clock = clock,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<StateStore> {
  if (location.kind === "directory") return new DirectoryStateStore(location.path, clock, lockClock);
  const { PostgresStateStore } = await import("./postgres-store.js");
  return new PostgresStateStore(location.url, location.display, clock, lockClock, env);
}
