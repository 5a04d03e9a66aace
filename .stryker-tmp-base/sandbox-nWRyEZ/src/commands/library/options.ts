// @ts-nocheck
import * as z from "zod";
import { nonEmptyFlag, switchFlag, usageIssue, wholeNumberFlag } from "../shared/flags.js";

/** The spec names no limit; 100 is the largest size we promise to send (docs/cli-contract.md users, sandbox). */
export const MAX_PAGE_SIZE = 100;

export const LibraryOptions = z
  .object({
    user: z.string(),
    tag: z.array(nonEmptyFlag("--tag")).default([]),
    search: nonEmptyFlag("--search").optional(),
    page: wholeNumberFlag("--page", 1).optional(),
    pageSize: wholeNumberFlag("--page-size", 1, MAX_PAGE_SIZE).optional(),
    all: switchFlag,
  })
  .superRefine((options, ctx) => {
    if (options.all && options.page !== undefined) {
      usageIssue(
        ctx,
        "--all walks every page from page 1 and cannot be combined with --page",
        "drop --page, or drop --all to fetch one page",
      );
    }
  });
