// @ts-nocheck
import * as z from "zod";
import { idsOrCsv, IdsOrCsv } from "../shared/flags.js";

/** --user and --sim, or --from-csv <file> [--resume] [--dry-run] for many. */
export const AssignOptions = z.object(IdsOrCsv).superRefine((options, ctx) => idsOrCsv(options, ctx, "assign"));
export const UnassignOptions = z.object(IdsOrCsv).superRefine((options, ctx) => idsOrCsv(options, ctx, "unassign"));
export type AssignOptions = z.output<typeof AssignOptions>;
