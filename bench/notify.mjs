// Reminder benchmark (docs/reminders.md "Pacing"): `progress notify` sending 2,000 reminders
// through the built binary to an SMTP sink on loopback (smtp-server: STARTTLS with a
// self-signed certificate, AUTH), against nodemailer alone sending the same 2,000 messages —
// the .eml files an --outbox run of the same file wrote — with the same pool (3 connections,
// 100 messages each) to the same sink. Runs alternate (nodemailer, notify, nodemailer,
// notify); throughput is counted at the sink, from the first message accepted to the last.
// CPU (user + system) over the same window of each sending process, read from /proc at the
// sink's first and last message: notify's, and nodemailer's (bench/parts/nodemailer-send.mjs,
// a process of its own for that reason).
// Pacing is off (--rate 0) in both: the bench measures what notify adds — templates, the
// ledger's claims and marks in the default directory state store — not the relay's limits.
//
//   node bench/notify.mjs          (after `npm run build`; also run by `npm run bench`)
//
// Targets: notify ≥ 0.8 × nodemailer's messages per second; completion-data requests of the
// run = the pairs not known completed (2,000 open pairs asked; the 500 completed ones were
// cached by an earlier `progress` run and are not asked again).

import { execFileSync, spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { distModule, fail, processCpuSeconds, runCli, withSandbox } from "./lib.mjs";

const OPEN = 2000;
const COMPLETED = 500;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USER = "bench";
const PASSWORD = "bench-password";
const FROM = "training@example.test";

const { pairScript } = await distModule("sandbox", "progress-script.js");
const work = await mkdtemp(join(tmpdir(), "simadmin-bench-notify-"));

// A self-signed certificate for the sink; trusted by notify through NODE_EXTRA_CA_CERTS and by
// the baseline through its ca option.
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-keyout",
    "key.pem",
    "-out",
    "cert.pem",
  ],
  { cwd: work, stdio: "ignore" },
);
const key = await readFile(join(work, "key.pem"), "utf8");
const cert = await readFile(join(work, "cert.pem"), "utf8");

const sink = { count: 0, first: 0, last: 0, sample: () => 0, cpuFirst: 0, cpuLast: 0 };
const server = new SMTPServer({
  key,
  cert,
  authMethods: ["PLAIN", "LOGIN"],
  logger: false,
  disableReverseLookup: true,
  size: 1 << 20,
  onAuth: (auth, _session, callback) =>
    auth.username === USER && auth.password === PASSWORD ? callback(null, { user: USER }) : callback(new Error("no")),
  onData(stream, _session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      const now = performance.now();
      if (sink.count++ === 0) {
        sink.first = now;
        sink.cpuFirst = sink.sample();
      }
      sink.last = now;
      if (sink.count === sink.expected) sink.cpuLast = sink.sample();
      callback(null, "queued");
    });
  },
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.server.address().port;
const smtpUrl = `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`;
const resetSink = () => Object.assign(sink, { count: 0, first: 0, last: 0, sample: () => 0, expected: OPEN });
const rate = () => (sink.count - 1) / ((sink.last - sink.first) / 1000);

try {
  await withSandbox(
    {
      rateLimits: { access: { limit: 1_000_000, windowMs: 1000 }, reports: { limit: 1000, windowMs: 1000 } },
      scriptedAttemptStepMs: 30_000,
    },
    { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000000/1s", NODE_EXTRA_CA_CERTS: join(work, "cert.pem") },
    async ({ sandbox, env }) => {
      const sims = sandbox.state.listSimulations(sandbox.org).map((s) => s.id);
      const today = new Date().toISOString().slice(0, 10);
      const open = [];
      const completed = [];
      for (let i = 1; open.length < OPEN || completed.length < COMPLETED; i++) {
        const userId = sandbox.state.createUser(sandbox.org, { email: `bench${i}@example.test` }).user.userId;
        for (const sim of sims) {
          const { kind } = pairScript(sandbox.org, userId, sim);
          if ((kind === 0 || kind === 1) && open.length < OPEN) open.push([userId, sim]);
          else if (kind === 4 && completed.length < COMPLETED) completed.push([userId, sim]);
        }
      }
      const file = join(work, "cohort.csv");
      await writeFile(
        file,
        [
          "userId,simulationId,dueDate,email",
          ...[...open, ...completed].map(([u, s]) => `${u},${s},${today},${u}.${s}@example.test`),
        ].join("\n"),
      );

      // The cache of completed pairs, made once by `progress` in a settings directory; each notify
      // run starts from a copy of it (the cache, and an empty reminder ledger).
      const warm = join(work, "state-warm");
      const progress = await runCli(["progress", "--from-csv", file, "-o", "json"], { ...env, SIMADMIN_CONFIG_DIR: warm });
      if (progress.code !== 0) throw new Error(`progress: exit ${progress.code}: ${progress.stderr}`);

      // The messages, as notify composes them, for the baseline.
      const outbox = join(work, "outbox");
      await cp(warm, join(work, "state-outbox"), { recursive: true });
      const out = await runCli(["progress", "notify", "--from-csv", file, "--outbox", outbox, "--from", FROM], {
        ...env,
        SIMADMIN_CONFIG_DIR: join(work, "state-outbox"),
      });
      if (out.code !== 0) throw new Error(`notify --outbox: exit ${out.code}: ${out.stderr}`);
      const names = (await readdir(outbox)).filter((f) => f.endsWith(".eml"));
      if (names.length !== OPEN) throw new Error(`the outbox holds ${names.length} messages, not ${OPEN}`);
      const baseline = async () => {
        resetSink();
        const args = { port, user: USER, password: PASSWORD, caFile: join(work, "cert.pem"), from: FROM, dir: outbox };
        const child = spawn(process.execPath, [join(import.meta.dirname, "parts", "nodemailer-send.mjs"), JSON.stringify(args)], {
          stdio: ["ignore", "ignore", "inherit"],
        });
        sink.sample = () => processCpuSeconds(child.pid);
        const code = await new Promise((resolveExit) => child.on("close", resolveExit));
        if (code !== 0) throw new Error(`nodemailer baseline: exit ${code}`);
        if (sink.count !== OPEN) throw new Error(`the sink got ${sink.count} messages, not ${OPEN}`);
        return { perSecond: rate(), cpu: sink.cpuLast - sink.cpuFirst };
      };
      let round = 0;
      const notify = async () => {
        resetSink();
        const state = join(work, `state-${++round}`);
        await cp(warm, state, { recursive: true });
        const before = sandbox.requests.length;
        const r = await runCli(
          ["progress", "notify", "--from-csv", file, "--smtp", smtpUrl, "--from", FROM, "--rate", "0", "-o", "json"],
          { ...env, SIMADMIN_CONFIG_DIR: state },
          { onSpawn: (child) => (sink.sample = () => processCpuSeconds(child.pid)) },
        );
        if (r.code !== 0) throw new Error(`notify: exit ${r.code}: ${r.stderr}`);
        if (sink.count !== OPEN) throw new Error(`the sink got ${sink.count} messages, not ${OPEN}`);
        const asked = sandbox.requests.slice(before).filter((q) => q.path.endsWith("/completion-data")).length;
        return { perSecond: rate(), asked, cpu: sink.cpuLast - sink.cpuFirst };
      };

      const base = [];
      const ours = [];
      for (let i = 0; i < ROUNDS; i++) {
        base.push(await baseline());
        ours.push(await notify());
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const b = Math.max(...base.map((x) => x.perSecond));
      const n = Math.max(...ours.map((o) => o.perSecond));
      console.log(
        `messages:             ${OPEN} reminders (${COMPLETED} more pairs completed, cached by an earlier progress run)`,
      );
      console.log(`nodemailer alone:     ${base.map((x) => x.perSecond.toFixed(0)).join(", ")} messages/s`);
      console.log(`progress notify:      ${ours.map((o) => o.perSecond.toFixed(0)).join(", ")} messages/s`);
      console.log(
        `ratio (best of ${ROUNDS}):    ${(n / b).toFixed(2)} × (target ≥ 0.8; medians ${(median(ours.map((o) => o.perSecond)) / median(base.map((x) => x.perSecond))).toFixed(2)} ×)`,
      );
      // CPU (user + system) per message while sending, in microseconds, of each sending process.
      const perMessage = (seconds) => (seconds * 1e6) / (OPEN - 1);
      const nodemailerUs = base.map((x) => perMessage(x.cpu));
      const notifyUs = ours.map((o) => perMessage(o.cpu));
      console.log(
        `CPU per message:      nodemailer ${nodemailerUs.map((x) => x.toFixed(0)).join(", ")} µs, notify ${notifyUs.map((x) => x.toFixed(0)).join(", ")} µs; medians ${(median(notifyUs) / median(nodemailerUs)).toFixed(2)} ×`,
      );
      console.log(
        `load average:         ${loadavg()
          .map((x) => x.toFixed(1))
          .join(" ")}`,
      );
      console.log(`completion requests:  ${ours.map((o) => o.asked).join(", ")} per run (pairs not known completed: ${OPEN})`);
      if (n / b < 0.8) fail(`notify sends at ${(n / b).toFixed(2)} × nodemailer's rate, below 0.8 ×`);
      for (const o of ours) if (o.asked !== OPEN) fail(`a run asked completion ${o.asked} times, not ${OPEN}`);
    },
  );
} finally {
  server.close();
  await rm(work, { recursive: true, force: true });
}
