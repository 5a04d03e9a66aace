import * as z from "zod";
import { parseValidFor } from "../../domain/durable-links.js";
import { idsOrCsv, IdsOrCsv, onlyWith, parsedFlag, switchFlag, usageIssue } from "../shared/flags.js";

export const LinkOptions = z
  .object({
    ...IdsOrCsv,
    assign: switchFlag,
    durable: switchFlag,
    validFor: parsedFlag(parseValidFor).optional(),
    validUntil: z.string().optional(),
  })
  .superRefine((options, ctx) => {
    idsOrCsv(options, ctx, "link");
    onlyWith(options, ctx, { key: "durable", flag: "--durable" }, [
      { key: "validFor", flag: "--valid-for" },
      { key: "validUntil", flag: "--valid-until" },
    ]);
    if (options.validFor !== undefined && options.validUntil !== undefined) {
      usageIssue(ctx, "--valid-for and --valid-until cannot go together", "give one of them");
    }
    if (options.durable && options.resume) {
      usageIssue(
        ctx,
        "--resume has nothing to resume with --durable: durable links ask the service nothing",
        "run the command again without --resume; it makes every row's link anew",
      );
    }
    if (options.durable && options.assign) {
      usageIssue(
        ctx,
        "--assign cannot go with --durable: a durable link asks the service nothing when it is made",
        "assign first with `simadmin assign`, then make the durable link",
      );
    }
  });
