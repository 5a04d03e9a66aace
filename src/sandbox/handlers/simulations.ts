import type { Attempt } from "../attempts.js";
import type { HandlerContext, HandlerResult } from "../types.js";
import { FieldReader } from "../validate.js";
import { requireOrganization, requireSimulation, requireUser } from "./lookup.js";

function readIds(
  ctx: HandlerContext,
  extra?: (fields: FieldReader) => void,
): { org: string; userId: string; simulationId: string } {
  const fields = new FieldReader(ctx.body);
  const org = fields.requireString("organizationId");
  const userId = fields.requireString("userId");
  const simulationId = fields.requireString("simulationId");
  extra?.(fields);
  fields.done();
  requireUser(ctx.state, org, userId);
  requireSimulation(ctx.state, org, simulationId);
  return { org, userId, simulationId };
}

/**
 * §4.2. The spec does not name the response field. Default dialect: v1 answers `url`, v2
 * `deepLink`; `link` dialect: `{link}`; `list` dialect: the public documentation's list form
 * `{"simulations": [{simulationId, deepLink}, …]}` — the asked simulation among others, not
 * first, so that a client must pick its entry.
 */
export function deepLinks(ctx: HandlerContext): HandlerResult {
  const { org, simulationId } = readIds(ctx);
  const link = ctx.state.deepLink(org, simulationId);
  switch (ctx.dialect.deepLink) {
    case "link":
      return { status: 200, body: { link } };
    case "list": {
      const others = ctx.state
        .listSimulations(org)
        .filter((s) => s.id !== simulationId)
        .slice(0, 2)
        .map((s) => ({ simulationId: s.id, deepLink: ctx.state.deepLink(org, s.id) }));
      const entries = [...others.slice(0, 1), { simulationId, deepLink: link }, ...others.slice(1)];
      return { status: 200, body: { simulations: entries } };
    }
    case "default":
      return { status: 200, body: ctx.version === 1 ? { url: link } : { deepLink: link } };
  }
}

function publicAttempt(a: Attempt): Record<string, unknown> {
  return {
    executionId: a.executionId,
    status: a.status,
    startedAt: a.startedAt,
    completedAt: a.completedAt,
    completionTime: a.completionTime,
    score: a.score,
    symScore: a.symScore,
    accuracyScore: a.accuracyScore,
    keywordScore: a.keywordScore,
    clickScore: a.clickScore,
    sentimentScores: a.sentimentScores,
  };
}

/** §4.3: every attempt (started, interrupted, completed), in both versions; none → empty array. */
export function completionData(ctx: HandlerContext): HandlerResult {
  const { org, userId, simulationId } = readIds(ctx);
  const attempts = ctx.state.listAttempts(org, userId, simulationId).map(publicAttempt);
  switch (ctx.dialect.completion) {
    case "bare":
      return { status: 200, body: attempts };
    case "attempts":
      return { status: 200, body: { userId, simulationId, attempts } };
    case "completionData":
      return { status: 200, body: { completionData: attempts } };
  }
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/**
 * §4.4. `tags`: a simulation must carry ALL the given tags (case-insensitive); `searchTerm`:
 * case-insensitive substring of title or description. No page metadata, like the real
 * service: clients stop when a page holds fewer than pageSize items.
 */
export function library(ctx: HandlerContext): HandlerResult {
  const fields = new FieldReader(ctx.body);
  const org = fields.requireString("organizationId");
  const userId = fields.requireString("userId");
  const tags = fields.optionalStringArray("tags");
  const searchTerm = fields.optionalString("searchTerm");
  const page = fields.optionalInteger("page", 1, Number.MAX_SAFE_INTEGER, 1);
  const pageSize = fields.optionalInteger("pageSize", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  fields.done();
  requireUser(ctx.state, org, userId);
  const wanted = (tags ?? []).map((t) => t.toLowerCase());
  const term = searchTerm?.trim().toLowerCase() ?? "";
  const matching = ctx.state.listSimulations(org).filter((s) => {
    const own = s.tags.map((t) => t.toLowerCase());
    if (!wanted.every((t) => own.includes(t))) return false;
    return term === "" || s.title.toLowerCase().includes(term) || s.description.toLowerCase().includes(term);
  });
  const { library: shape } = ctx.dialect;
  // A capped service returns fewer than asked without saying so; one that ignores `page` answers page 1 again.
  const size = Math.min(pageSize, shape.maxPageSize);
  const from = shape.ignoresPage ? 0 : (page - 1) * size;
  const items = matching.slice(from, from + size).map((s) => ({
    id: s.id,
    title: s.title,
    type: s.type,
    duration: s.duration,
    description: s.description,
    tags: s.tags,
  }));
  const totalPages = Math.ceil(matching.length / size);
  const meta = { page, pageSize: size, total: matching.length, totalPages };
  if (shape.envelope === "bare") return { status: 200, body: items };
  const body: Record<string, unknown> = { [shape.envelope]: items };
  if (shape.meta === "top") Object.assign(body, meta);
  if (shape.meta === "nested") body.meta = meta;
  return { status: 200, body };
}

/** §4.5: idempotent both ways; the deep link only when assigning. */
export function assignment(ctx: HandlerContext): HandlerResult {
  let assign = false;
  const { org, userId, simulationId } = readIds(ctx, (fields) => {
    assign = fields.requireBoolean("assign");
  });
  ctx.state.setAssigned(org, userId, simulationId, assign);
  return {
    status: 200,
    body: assign
      ? { success: true, simulationId, deepLink: ctx.state.deepLink(org, simulationId) }
      : { success: true, simulationId },
  };
}

/** §4.6: a signed token valid 3600 s. */
export function userToken(ctx: HandlerContext): HandlerResult {
  const fields = new FieldReader(ctx.body);
  const org = fields.requireString("organizationId");
  const userId = fields.requireString("userId");
  fields.done();
  requireOrganization(ctx.state, org);
  requireUser(ctx.state, org, userId);
  const issued = ctx.state.issueUserToken(org, userId);
  return { status: 200, body: ctx.dialect.tokenExpiresIn ? issued : { token: issued.token } };
}
