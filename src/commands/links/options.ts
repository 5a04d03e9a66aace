import * as z from "zod";
import { nonEmptyFlag, parsedFlag } from "../shared/flags.js";
import { DEFAULT_LISTEN, parseListen } from "./listen.js";

export const ServeOptions = z.object({
  listen: parsedFlag(parseListen).default(parseListen(DEFAULT_LISTEN)),
});

export const RevokeOptions = z.object({
  user: nonEmptyFlag("--user").optional(),
});
