import type { ImportTask } from "./import-tasks.js";

// Users as the sandbox stores them: created by user/create or by a completed bulk import.

export interface SandboxUser {
  userId: string;
  organizationId: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  role: string;
  status: "ACTIVE" | "INACTIVE";
  teamName?: string;
  createdAt: string;
  /** Other optional fields given to user/create, answered back as they came. */
  fields: Record<string, unknown>;
}

/** What user/create may give (docs/service-spec.md §4.7). */
export interface NewUserInput {
  email: string;
  firstName?: string;
  lastName?: string;
  teamName?: string;
  status?: "ACTIVE" | "INACTIVE";
  fields?: Record<string, unknown>;
}

/** A new trainee; the team only when there is one. Fields in the order answers show them. */
export function newTrainee(user: Omit<SandboxUser, "role" | "teamName"> & { teamName?: string | undefined }): SandboxUser {
  return {
    userId: user.userId,
    organizationId: user.organizationId,
    email: user.email,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    role: "trainee",
    status: user.status,
    ...(user.teamName ? { teamName: user.teamName } : {}),
    createdAt: user.createdAt,
    fields: user.fields,
  };
}

/**
 * Applies a completed task's rows to `users`: Add creates a trainee (named `newUserId()`),
 * Update changes the user with that email; an Add for a user created meanwhile (e.g. by
 * user/create) behaves like Update, and an Update for a user who vanished does nothing.
 */
export function applyImportRows(users: SandboxUser[], task: ImportTask, createdAt: string, newUserId: () => string): void {
  for (const row of task.rows) {
    const email = row.email.toLowerCase();
    const existing = users.find((u) => u.organizationId === task.organizationId && u.email.toLowerCase() === email);
    if (existing) {
      existing.firstName = row.firstName;
      existing.lastName = row.lastName;
      existing.status = row.status;
      if (row.teamName) existing.teamName = row.teamName;
      continue;
    }
    if (row.action === "Update") continue;
    users.push(
      newTrainee({
        userId: newUserId(),
        organizationId: task.organizationId,
        email: row.email,
        username: row.username,
        firstName: row.firstName,
        lastName: row.lastName,
        status: row.status,
        teamName: row.teamName,
        createdAt,
        fields: {},
      }),
    );
  }
}

/** A user as user/create answers it: the stored fields, then the extra ones. */
export function publicUser(user: SandboxUser): Record<string, unknown> {
  const { fields, teamName, ...rest } = user;
  return { ...fields, ...rest, ...(teamName !== undefined ? { teamName } : {}) };
}
