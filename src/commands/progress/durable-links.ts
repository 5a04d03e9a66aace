import type { ProgressRow } from "../../domain/progress.js";
import type { PairLink, PairResult } from "../../engines/progress/pair-asker.js";
import type { DurableLinkMaker } from "../shared/durable-links.js";

// progress --links --durable (docs/cli-contract.md "Durable links"): a durable link
// `<links-url>/l/<id>` for every pair not completed, made without asking the service anything
// (no deep-links, no user/token); `links serve` mints the token when the trainee clicks.

export function durablePairLinks(maker: DurableLinkMaker, pairs: readonly PairResult[]): Map<ProgressRow, PairLink> {
  const out = new Map<ProgressRow, PairLink>();
  for (const { row } of pairs) out.set(row, maker.make(row.userId, row.simulationId));
  return out;
}
