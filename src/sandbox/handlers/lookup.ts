import { notFound } from "../http-error.js";
import type { SeedSimulation } from "../seed.js";
import type { SandboxState } from "../state.js";
import type { SandboxUser } from "../users.js";

// 404s for unknown ids (docs/service-spec.md §7), checked after the 400s so that a malformed request is
// always reported as such first.

export function requireOrganization(state: SandboxState, org: string): void {
  if (!state.hasOrganization(org)) throw notFound(`organization ${JSON.stringify(org)} not found`, { organizationId: org });
}

export function requireUser(state: SandboxState, org: string, userId: string): SandboxUser {
  requireOrganization(state, org);
  const user = state.getUser(org, userId);
  if (!user || user.userId !== userId) {
    throw notFound(`user ${JSON.stringify(userId)} not found in organization ${JSON.stringify(org)}`, {
      organizationId: org,
      userId,
    });
  }
  return user;
}

export function requireSimulation(state: SandboxState, org: string, simulationId: string): SeedSimulation {
  const sim = state.getSimulation(org, simulationId);
  if (!sim) {
    throw notFound(`simulation ${JSON.stringify(simulationId)} not found in organization ${JSON.stringify(org)}`, {
      organizationId: org,
      simulationId,
    });
  }
  return sim;
}
