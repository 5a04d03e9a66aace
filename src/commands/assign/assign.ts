import { assignSimulation, unassignSimulation } from "../../api/endpoints.js";
import type { Services } from "../../services.js";
import { ServiceError } from "../../errors.js";
import { isPlainObject, type JsonRecord } from "../../domain/records.js";
import { explainNotFound } from "../shared/access.js";
import { defineRun } from "../types.js";
import { AssignOptions, UnassignOptions } from "./options.js";

// assign / unassign --user --sim (docs/service-spec.md §4.5, version 2). Assigning answers the deep link,
// which is what the user needs next, so it is the bare value of `-o text`.

interface Ids {
  organizationId: string;
  userId: string;
  simulationId: string;
}

async function readIds(services: Services, options: AssignOptions): Promise<Ids> {
  // Both given: the option schema requires them unless --from-csv is (bulk.ts then runs instead).
  return { organizationId: await services.org(), userId: options.user!, simulationId: options.sim! };
}

/** The service's answer after our own fields, without letting it overwrite them. */
function withAnswer(ours: JsonRecord, answer: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...ours };
  for (const [key, value] of Object.entries(answer)) if (!(key in out)) out[key] = value;
  return out;
}

export const assign = defineRun(AssignOptions, async ({ options, services, printer }) => {
  if (options.fromCsv !== undefined) return (await import("../shared/bulk.js")).runBulk({ services, printer }, "assign", options);
  const ids = await readIds(services, options);
  const api = await services.api();
  let answer;
  try {
    answer = await assignSimulation(api, ids);
  } catch (error) {
    throw explainNotFound(error, { org: ids.organizationId, user: ids.userId, sim: ids.simulationId });
  }
  if (!answer.success) {
    throw new ServiceError(`assignment: the service answered success=false for ${ids.simulationId} and user ${ids.userId}`, {
      hint: "run the command again; if it persists, contact the service operator",
    });
  }
  const value = withAnswer(
    { userId: ids.userId, simulationId: answer.simulationId ?? ids.simulationId, assigned: true, deepLink: answer.deepLink },
    answer,
  );
  return { kind: "object", value, text: answer.deepLink };
});

export const unassign = defineRun(UnassignOptions, async ({ options, services, printer }) => {
  if (options.fromCsv !== undefined)
    return (await import("../shared/bulk.js")).runBulk({ services, printer }, "unassign", options);
  const ids = await readIds(services, options);
  const api = await services.api();
  let answer: unknown;
  try {
    answer = await unassignSimulation(api, ids);
  } catch (error) {
    throw explainNotFound(error, { org: ids.organizationId, user: ids.userId, sim: ids.simulationId });
  }
  // "A success status; its exact shape: not shown" (docs/service-spec.md §4.5): an object is merged, anything
  // else (true, "OK", nothing) is kept whole under `response`. Only an explicit failure fails.
  if ((isPlainObject(answer) && answer.success === false) || answer === false) {
    throw new ServiceError(
      `assignment: the service did not confirm unassigning ${ids.simulationId} from user ${ids.userId} (success=false)`,
      {
        hint: "run the command again; if it persists, contact the service operator",
      },
    );
  }
  const ours = { userId: ids.userId, simulationId: ids.simulationId, assigned: false };
  const value = isPlainObject(answer) ? withAnswer(ours, answer) : answer === null ? ours : { ...ours, response: answer };
  return { kind: "object", value };
});
