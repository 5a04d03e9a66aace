import type * as z from "zod";
import { UsageError } from "../../errors.js";
import { Baseline } from "../../domain/users-sync/sync-plan.js";
import {
  Deactivations,
  type HeldBatch,
  HeldBatches,
  type OpenTask,
  OpenTasks,
  SyncRun,
  Unsent,
} from "../../domain/users-sync/records.js";
import type { StateStore, Tenant } from "../../state/store.js";

// What `users sync` keeps, per service and organization, in the state store (kind
// `users-sync`; the entries are described in domain/users-sync/records.ts and
// docs/users-sync.md "What is kept"). Read whole at the start of a run; every change is one
// atomic put of the entries it touches, so a run killed at any moment leaves the state as it
// was before or after that change.

export const SYNC_KIND = "users-sync";

export interface SyncSnapshot {
  baseline: Baseline | undefined;
  run: SyncRun | undefined;
  held: HeldBatch[];
  tasks: OpenTask[];
  unsent: Unsent | undefined;
  deactivations: Deactivations;
}

/** The entries of the kind, by key; null removes one. */
export interface SyncChanges {
  baseline?: Baseline;
  run?: SyncRun | null;
  held?: HeldBatch[];
  tasks?: OpenTask[];
  unsent?: Unsent | null;
  deactivations?: Deactivations;
}

export class SyncState {
  constructor(
    readonly store: StateStore,
    readonly tenant: Tenant,
  ) {}

  /** Whether anything is kept yet (a first use may move an old settings directory in). */
  async isEmpty(): Promise<boolean> {
    return (await this.store.list(this.tenant, SYNC_KIND)).size === 0;
  }

  async load(): Promise<SyncSnapshot> {
    const entries = await this.store.list(this.tenant, SYNC_KIND);
    const read = <S extends z.ZodType>(key: string, schema: S): z.output<S> | undefined => {
      const value = entries.get(key);
      if (value === undefined || value === null) return undefined;
      const parsed = schema.safeParse(value);
      if (!parsed.success)
        throw new UsageError(
          `the users sync state in ${this.store.location} (${key}) is not one simadmin can read; nothing was sent`,
          { hint: "a newer simadmin may have written it: use that version, or restore the store from a backup" },
        );
      return parsed.data;
    };
    return {
      baseline: read("baseline", Baseline),
      run: read("run", SyncRun),
      held: read("held", HeldBatches) ?? [],
      tasks: read("tasks", OpenTasks) ?? [],
      unsent: read("unsent", Unsent),
      deactivations: read("deactivations", Deactivations) ?? {},
    };
  }

  /** One atomic change of the entries given. */
  put(changes: SyncChanges): Promise<void> {
    return this.store.put(this.tenant, SYNC_KIND, { ...changes });
  }
}
