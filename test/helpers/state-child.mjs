// A second process using the state store through the built modules (dist/), for the tests
// where the processes are the subject: claims racing, a lock held by another process, a
// batch killed half-way. Usage: node state-child.mjs <location> claim <value> | batches | hold
import { systemClock } from "../../dist/clock.js";
import { parseStateLocation } from "../../dist/state/location.js";
import { openStateStore } from "../../dist/state/open-store.js";

const [location, mode, value] = process.argv.slice(2);
const tenant = { service: "https://child.example", organizationId: "org-child" };
const store = await openStateStore(parseStateLocation(location), systemClock);
if (mode === "claim") {
  console.log(JSON.stringify(await store.claim(tenant, "links", "key", value)));
} else if (mode === "batches") {
  // Batch n sets every one of 500 keys to n: a half-applied batch would show two values.
  for (let n = 1; ; n++) {
    const changes = {};
    for (let i = 0; i < 500; i++) changes[`k${i}`] = n;
    await store.put(tenant, "users-sync", changes);
    console.log(n);
  }
} else if (mode === "hold") {
  await store.lock(tenant, "users-sync", { timeoutMs: 10_000, purpose: "simadmin child-holder" });
  console.log("held");
  // Held until killed: the timer keeps the process alive, the promise keeps close() away.
  setInterval(() => undefined, 60_000);
  await new Promise(() => undefined);
}
await store.close();
