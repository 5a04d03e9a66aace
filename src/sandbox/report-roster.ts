import { loadSeed } from "./seed.js";

// Who and what the generated reports name: the seed's org-demo users, teams and simulations.

export interface ReportRoster {
  users: { id: string; name: string; team: string }[];
  teams: { id: string; name: string }[];
  simulations: { id: string; title: string; type: string }[];
}

let cachedRoster: ReportRoster | undefined;

/** The org-demo roster from the seed; reports carry no organizationId, so one org is used. */
export function defaultRoster(): ReportRoster {
  if (cachedRoster) return cachedRoster;
  const seed = loadSeed();
  cachedRoster = {
    users: seed.users
      .filter((u) => u.organizationId === "org-demo")
      .map((u) => ({ id: u.userId, name: `${u.firstName} ${u.lastName}`, team: u.teamName ?? "" })),
    teams: seed.teams.filter((t) => t.organizationId === "org-demo").map((t) => ({ id: t.id, name: t.name })),
    simulations: seed.simulations
      .filter((s) => s.organizationId === "org-demo")
      .map((s) => ({ id: s.id, title: s.title, type: s.type })),
  };
  return cachedRoster;
}
