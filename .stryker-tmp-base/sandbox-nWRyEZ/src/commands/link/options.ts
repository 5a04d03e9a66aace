// @ts-nocheck
import * as z from "zod";
import { idsOrCsv, IdsOrCsv, switchFlag } from "../shared/flags.js";

export const LinkOptions = z
  .object({ ...IdsOrCsv, assign: switchFlag })
  .superRefine((options, ctx) => idsOrCsv(options, ctx, "link"));
