import type { CommandDeclaration, GroupDeclaration } from "../types.js";

// `links serve` and `links revoke` (docs/cli-contract.md "Durable links", docs/links.md).
// Durable links themselves are made by `link --durable` and `progress --links --durable`.
// Plain data: see ../types.ts.

export const links: GroupDeclaration = {
  kind: "group",
  name: "links",
  description: "the link service that turns durable links into fresh token links when trainees click, and revocation",
  examples: ["simadmin links serve --listen 127.0.0.1:8080", "simadmin links revoke --user u-123"],
};

export const linksServe: CommandDeclaration = {
  kind: "command",
  name: "links serve",
  description: "serve durable links: a Start page per link, a fresh user token on click (runs until SIGTERM or Ctrl-C)",
  flags: [{ flags: "--listen <host:port>", description: "address to listen on (default 127.0.0.1:8080; :0 for a free port)" }],
  help: "Runs in the foreground with the profile's API key and organization, and prints 'listening on http://host:port' on stderr once it accepts connections. GET /l/<id> answers a page with a Start button and asks the service nothing (mail scanners spend no token); the button's POST asks for the deep link and a user token (one per user, kept in memory while 10 minutes of it remain) and redirects to the simulation. When the access budget is full the page waits and continues by itself. Also GET /healthz and GET /metrics (Prometheus). Put it behind your TLS reverse proxy (the README's documentation list: durable links).",
  examples: [
    "simadmin links serve",
    "SIMADMIN_RATE_STORE=redis://10.0.0.5:6379/0 simadmin links serve --listen 0.0.0.0:8080",
    "simadmin --sandbox links serve --listen :0",
  ],
  api: [2],
  versionNote: "a click needs a user token (user/token), which exists only in version 2",
  outputs: "none",
  writesSettings: false,
  needsOrg: true,
  fields: false,
  load: async () => (await import("./serve.js")).run,
};

export const linksRevoke: CommandDeclaration = {
  kind: "command",
  name: "links revoke",
  description: "stop durable links from working: given links or ids, or every link of a user made before now",
  args: [{ name: "link", description: "a durable link (…/l/<id>) or its id", many: true }],
  flags: [{ flags: "--user <id>", description: "revoke every link of this user made until now" }],
  help: "Revocations are kept in the state store, beside the link key; every running links serve using that store honours them within 10 seconds. Nothing is sent to the service.",
  examples: ["simadmin links revoke https://links.example.com/l/AWsJ42Jr…", "simadmin links revoke --user u-123"],
  api: "local",
  outputs: "none",
  writesSettings: false,
  needsOrg: true,
  fields: false,
  load: async () => (await import("./revoke.js")).run,
};
