// @ts-nocheck
// The parts of undici that transport-proxy.ts imports by path instead of the package's
// index, which also loads fetch, WebSocket, caches and mocks: half the start-up cost of a
// proxied run (README "Dependencies"). Their types are the package's own.

declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import type { EnvHttpProxyAgent } from "undici";
  const Agent: typeof EnvHttpProxyAgent;
  export default Agent;
}

declare module "undici/lib/dispatcher/dispatcher.js" {
  import type { Dispatcher } from "undici";
  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}

declare module "undici/lib/api/index.js" {
  const api: Record<string, unknown>;
  export default api;
}
