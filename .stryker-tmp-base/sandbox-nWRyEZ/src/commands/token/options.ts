// @ts-nocheck
import * as z from "zod";

export const TokenOptions = z.object({ user: z.string() });
