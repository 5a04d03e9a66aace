// @ts-nocheck
import { readFileSync } from "node:fs";
import * as z from "zod";
import { packagePath } from "../package-root.js";

export const SeedApiKey = z.object({
  key: z.string().min(1),
  name: z.string(),
  permissions: z.array(z.enum(["reports", "access"])),
});
export type SeedApiKey = z.infer<typeof SeedApiKey>;

export const SeedOrganization = z.object({ id: z.string().min(1), name: z.string() });
export type SeedOrganization = z.infer<typeof SeedOrganization>;

export const SeedTeam = z.object({ id: z.string().min(1), organizationId: z.string(), name: z.string() });
export type SeedTeam = z.infer<typeof SeedTeam>;

export const SeedUser = z.object({
  userId: z.string().min(1),
  organizationId: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  status: z.enum(["ACTIVE", "INACTIVE"]),
  teamName: z.string().optional(),
  createdAt: z.string(),
});
export type SeedUser = z.infer<typeof SeedUser>;

export const SeedSimulation = z.object({
  id: z.string().min(1),
  organizationId: z.string(),
  title: z.string(),
  type: z.string(),
  duration: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
});
export type SeedSimulation = z.infer<typeof SeedSimulation>;

const nullableNumber = z.number().nullable();
export const SentimentScores = z.record(z.string(), z.number());

export const SeedAttempt = z.object({
  executionId: z.string().min(1),
  organizationId: z.string(),
  userId: z.string(),
  simulationId: z.string(),
  status: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  completionTime: z.number().int().nullable(),
  score: nullableNumber,
  symScore: nullableNumber,
  accuracyScore: nullableNumber,
  keywordScore: nullableNumber,
  clickScore: nullableNumber,
  sentimentScores: SentimentScores.nullable(),
});
export type SeedAttempt = z.infer<typeof SeedAttempt>;

export const SeedAssignment = z.object({ organizationId: z.string(), userId: z.string(), simulationId: z.string() });
export type SeedAssignment = z.infer<typeof SeedAssignment>;

export const Seed = z.object({
  apiKeys: z.array(SeedApiKey),
  organizations: z.array(SeedOrganization),
  teams: z.array(SeedTeam),
  users: z.array(SeedUser),
  simulations: z.array(SeedSimulation),
  attempts: z.array(SeedAttempt),
  assignments: z.array(SeedAssignment),
});
export type Seed = z.infer<typeof Seed>;

let cachedText: string | undefined;

/** A fresh, mutable copy of the seed on every call (each sandbox owns its state). */
export function loadSeed(): Seed {
  // From the package root, not "../../fixtures": this module runs from src/sandbox/ (tests),
  // dist/sandbox/ (tsc build) or a chunk in dist/bundle/.
  cachedText ??= readFileSync(packagePath("fixtures", "sandbox-seed.json"), "utf8");
  return Seed.parse(JSON.parse(cachedText));
}
