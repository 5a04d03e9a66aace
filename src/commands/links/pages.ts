import { createHash } from "node:crypto";

// The pages `links serve` answers with (docs/cli-contract.md "Durable links"): small, plain
// HTML that works with a screen reader, keyboard only, and without script. One stylesheet
// inline, allowed by its hash in the Content-Security-Policy; no script at all. Every value
// placed in a page is escaped.

const CSS = `body{font:1.05rem/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1c1e21}
main{max-width:32rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin:0 0 1rem}
button{font:inherit;font-weight:600;padding:.7rem 1.6rem;border:0;border-radius:.4rem;background:#0b57d0;color:#fff;cursor:pointer}
button:hover{background:#0842a0}
button:focus-visible{outline:3px solid #e8a200;outline-offset:2px}
.muted{color:#555;font-size:.9rem}`;

/** For the Content-Security-Policy: the one inline stylesheet, by hash. */
export const STYLE_HASH = `sha256-${createHash("sha256").update(CSS).digest("base64")}`;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export interface Page {
  status: number;
  html: string;
  headers?: Record<string, string>;
}

function page(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
${head}<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The button posts back to the same address: no action attribute, so a proxy's path prefix is kept. */
const startForm = (label: string): string =>
  `<form method="post">
<button type="submit">${escapeHtml(label)}</button>
</form>`;

export function startPage(simulationId: string): Page {
  const name = escapeHtml(simulationId);
  return {
    status: 200,
    html: page(
      `Start simulation ${simulationId}`,
      `<h1>Your training simulation is ready</h1>
<p>Simulation <strong>${name}</strong> opens when you press Start.</p>
${startForm("Start")}
<p class="muted">This link is personal: please do not forward it.</p>`,
    ),
  };
}

export function notFoundPage(): Page {
  return {
    status: 404,
    html: page(
      "Link not found",
      `<h1>This link is not valid</h1>
<p>Check that the whole link was copied from the message, or ask whoever sent it for a new one.</p>`,
    ),
  };
}

export function gonePage(why: "expired" | "revoked" | "unavailable"): Page {
  const text = {
    expired: ["This link has expired", "It was valid for a limited time. Ask whoever sent it for a new link."],
    revoked: ["This link has been withdrawn", "It no longer opens the simulation. Ask whoever sent it for a new link."],
    unavailable: [
      "This simulation is no longer available",
      "The training service no longer knows the simulation or the account this link was made for. Ask whoever sent it for a new link.",
    ],
  }[why];
  return { status: 410, html: page(text[0]!, `<h1>${escapeHtml(text[0]!)}</h1>\n<p>${escapeHtml(text[1]!)}</p>`) };
}

/** The budget is full: the page reloads by itself (a GET carrying the resume ticket) after `seconds`. */
export function busyPage(seconds: number, resumeUrl: string): Page {
  const wait = seconds < 90 ? `${seconds} seconds` : `about ${Math.round(seconds / 60)} minutes`;
  return {
    status: 503,
    headers: { "Retry-After": String(seconds) },
    html: page(
      "Starting soon",
      `<h1>Many people are starting right now</h1>
<p role="status">Your simulation opens by itself in ${wait}. Please keep this page open.</p>
<p class="muted">If nothing happens, <a href="${escapeHtml(resumeUrl)}">continue here</a>.</p>`,
      `<meta http-equiv="refresh" content="${seconds};url=${escapeHtml(resumeUrl)}">\n`,
    ),
  };
}

/** The service failed or refused during a click: say so, and offer the same click again. */
export function failurePage(status: 502 | 500): Page {
  return {
    status,
    html: page(
      "The simulation could not be started",
      `<h1>The simulation could not be started</h1>
<p>The training service did not answer as expected. Please try again in a moment.</p>
${startForm("Try again")}
<p class="muted">If this keeps happening, tell whoever sent you the link.</p>`,
    ),
  };
}

export function plainText(status: number, text: string): Page {
  return { status, html: text, headers: { "Content-Type": "text/plain; charset=utf-8" } };
}
