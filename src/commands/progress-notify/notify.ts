import { hostname } from "node:os";
import { ChangesPendingError, InvalidDataError, ServiceError, UsageError } from "../../errors.js";
import { pairState, type ProgressRow } from "../../domain/progress.js";
import { isValidEmailAddress } from "../../domain/users-csv/rows.js";
import { dueToday } from "../../domain/reminders/due.js";
import {
  groupDigests,
  groupReminders,
  messageId,
  messageKeys,
  type NotifyMessage,
  type OpenPair,
} from "../../domain/reminders/grouping.js";
import { dayText, utcDay } from "../../domain/reminders/schedule.js";
import { renderMail } from "../../domain/reminders/templates.js";
import { DEFAULT_LINK_VALIDITY_MS } from "../../domain/durable-links.js";
import { durableLinkMaker } from "../shared/durable-links.js";
import { readProgressFile } from "../../engines/progress/input.js";
import { DEFAULT_DUE_SOON_DAYS } from "../../engines/progress/progress-plan.js";
import type { OutgoingMail } from "../../engines/reminders/delivery.js";
import { ReminderLedger, type LedgerEntry } from "../../engines/reminders/ledger.js";
import { moveLegacyLedger } from "../../engines/reminders/legacy-ledger.js";
import { sendAll, type SendItem } from "../../engines/reminders/send.js";
import { invalidRowsOutcome, prepareCompletionAsking } from "../shared/completion-asking.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { chooseDelivery } from "./delivery.js";
import { NotifyOptions } from "./options.js";
import { readRecipients } from "./recipients.js";
import { ambiguousDigestRecord, ambiguousRecord, messageRecord, NOTIFY_COLUMNS, TABLE_COLUMNS } from "./records.js";
import { loadTemplates } from "./templates.js";
import { showPath } from "../../messages.js";

// progress notify --from-csv <file> (docs/cli-contract.md "Reminders", docs/reminders.md):
// what is due today (domain/reminders/due.ts), completion asked as `progress` asks it (the
// progress engine, ../shared/completion-asking.ts), the messages grouped and worded
// (domain/reminders/), then each claimed in the ledger, sent and marked
// (engines/reminders/send.ts) — or, with --plan, only listed.

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The address part of `Name <a@b.example>` or `a@b.example`, when valid. */
function senderAddress(from: string): string | undefined {
  const address = (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  return isValidEmailAddress(address) ? address : undefined;
}

export const run = defineRun(NotifyOptions, async (ctx): Promise<CommandOutcome> => {
  const { options, services, printer } = ctx;
  const file = await readProgressFile(options.fromCsv, options.encoding);
  for (const warning of file.warnings) printer.notice(`${showPath(options.fromCsv)}: ${warning}`);
  const recipients = readRecipients(options.fromCsv, file, options.digest);
  const problems = [...file.problems, ...recipients.problems].sort((a, b) => a.row - b.row);
  if (problems.length > 0) return invalidRowsOutcome(options.fromCsv, problems);

  const columns = file.header.names.filter(
    (_, i) => i !== file.header.userId && i !== file.header.simulationId && i !== file.header.dueDate,
  );
  const templates = await loadTemplates(options.template, columns);
  const settings = await services.settings();
  const delivery = options.plan ? undefined : chooseDelivery(ctx, options, settings.timeoutSeconds ?? 30);
  const sender = options.from === undefined ? undefined : senderAddress(options.from);
  if (options.from !== undefined && sender === undefined) {
    throw new UsageError(`--from: ${JSON.stringify(options.from)} is not an email address`, {
      hint: "e.g. --from training@example.com or --from 'Training <training@example.com>'",
    });
  }
  if (delivery && sender === undefined) {
    throw new UsageError("--from <address> is needed to send", { hint: "e.g. --from 'Training <training@example.com>'" });
  }

  // The ledger lives in the state store (docs/state.md), shared by every machine pointed at it;
  // one kept in the settings directory by an older version moves in first.
  const [store, tenant] = await Promise.all([services.state(), services.tenant()]);
  await moveLegacyLedger(store, tenant, await services.stateDir(), (text) => printer.info(text));
  const ledger = await ReminderLedger.open(store, tenant);
  const now = services.clock.now();
  const today = utcDay(now);
  const due = dueToday({
    rows: file.rows,
    today,
    steps: options.steps,
    ledger: { status: (key) => ledger.entries.get(key)?.status },
    resendAmbiguous: options.resendAmbiguous,
    managerOf: recipients.managerOf,
  });
  const leftUnsure = [
    ...due.ambiguous.map((a) => ambiguousRecord(ledger.entries.get(a.key)!, a.row.userId, a.row.simulationId, a.step)),
    ...due.ambiguousDigests.map((d) => ambiguousDigestRecord(ledger.entries.get(d.key)!)),
  ];
  if (leftUnsure.length > 0) {
    const steps = due.ambiguous.length;
    const what = [
      ...(steps > 0 ? [plural(steps, "reminder step")] : []),
      ...(due.ambiguousDigests.length > 0 ? [plural(due.ambiguousDigests.length, "digest")] : []),
    ].join(" and ");
    printer.warn(
      `${what} left unsure by an earlier run (killed or cut off during the SMTP transaction, or its state store gone) ${leftUnsure.length === 1 ? "is" : "are"} not sent again: listed with status ambiguous; check the recipients' mailboxes${steps > 0 ? `, and send the steps with --resend-ambiguous on their day` : ""}`,
    );
  }

  // Completion, asked only for the pairs something is due for today.
  const open = new Map<ProgressRow, OpenPair>();
  if (due.toAsk.length > 0) {
    const asking = await prepareCompletionAsking(ctx, due.toAsk, {
      refresh: options.refresh,
      dueSoonDays: DEFAULT_DUE_SOON_DAYS,
    });
    printer.info(asking.progressPlan.line);
    const asker = await asking.openAsker();
    try {
      await asker.sweep(asking.progressPlan.ordered, asking.progressPlan.results);
    } finally {
      asking.progress.stop();
    }
    const askedAt = services.clock.now();
    let refused = 0;
    for (const row of due.toAsk) {
      const result = asking.progressPlan.results.get(row);
      if (result?.error !== undefined) {
        refused++;
        continue;
      }
      const state = pairState(result?.facts, row.dueDate, askedAt, settings.apiVersion);
      if (state === "completed") continue;
      open.set(row, { row, state });
    }
    if (refused > 0) {
      printer.warn(
        `${plural(refused, "pair")} refused by the service (unknown user or simulation): no mail for them; see \`simadmin progress --from-csv ${options.fromCsv}\``,
      );
    }
  }

  // A durable link per open pair when a links URL is set (docs/cli-contract.md "Durable
  // links"); without one, no link: a one-hour token link is never mailed. --plan makes none.
  if (settings.linksUrl !== undefined && delivery && open.size > 0) {
    const maker = await durableLinkMaker(services, { validFor: DEFAULT_LINK_VALIDITY_MS });
    for (const pair of open.values()) pair.link = maker.make(pair.row.userId, pair.row.simulationId).link;
  }

  const reminders = groupReminders(
    due.steps
      .filter((d) => open.has(d.row))
      .map((d) => ({ pair: open.get(d.row)!, to: recipients.emailOf(d.row), step: d.step })),
  ).sort((a, b) => a.step - b.step); // the most overdue first: what --max keeps
  const digests = recipients.managerOf
    ? groupDigests(
        [...open.values()]
          .map((pair) => ({ pair, manager: recipients.managerOf!(pair.row) }))
          .filter(
            (p): p is { pair: OpenPair; manager: string } =>
              p.manager !== undefined && due.digests.has(p.manager.trim().toLowerCase()),
          ),
        today,
      )
    : [];
  const messages: NotifyMessage[] = [...reminders, ...digests];
  const kept = options.max === undefined ? messages : messages.slice(0, options.max);
  const held = messages.slice(kept.length);
  const domain = sender?.split("@")[1] ?? "simadmin.invalid";
  const idOf = (message: NotifyMessage): string => messageId(tenant, message, domain);
  const heldRecords = held.map((m) => messageRecord(m, "held", idOf(m), `over --max ${options.max}: sent by a later run`));
  const summary = `${plural(reminders.length, "reminder")} and ${plural(digests.length, "digest")} due on ${dayText(today)}`;

  if (!delivery) {
    const records = [...kept.map((m) => messageRecord(m, "planned", idOf(m))), ...heldRecords, ...leftUnsure];
    return {
      kind: "records",
      records,
      tableColumns: TABLE_COLUMNS,
      knownFields: NOTIFY_COLUMNS,
      note: `plan: ${summary}; nothing was sent or recorded`,
      ...(messages.length > 0
        ? { failure: new ChangesPendingError(`plan: ${plural(messages.length, "message")} to send; nothing was sent`) }
        : {}),
    };
  }

  if (messages.length === 0) {
    return {
      kind: "records",
      records: leftUnsure,
      tableColumns: TABLE_COLUMNS,
      knownFields: NOTIFY_COLUMNS,
      note: `nothing to send today (${dayText(today)})`,
    };
  }

  const claimedBy = `${hostname()} pid ${process.pid}`;
  const ambiguousKeys = new Set(due.steps.filter((d) => d.ambiguous).map((d) => d.key));
  const items: SendItem[] = kept.map((message) => {
    const id = idOf(message);
    const at = new Date(services.clock.now()).toISOString();
    const keys = messageKeys(message);
    const claims = keys.map((key, i): { key: string; entry: LedgerEntry } => {
      const base = { status: "sending" as const, at, to: message.to, messageId: id, claimedBy };
      if (message.kind === "digest") return { key, entry: { ...base, kind: "digest", day: dayText(message.day) } };
      const row = message.pairs[i]!.row;
      return {
        key,
        entry: {
          ...base,
          kind: "reminder",
          userId: row.userId,
          simulationId: row.simulationId,
          dueDate: row.dueDate ?? "",
          step: message.step,
        },
      };
    });
    return { message, claims, ambiguous: keys.some((k) => ambiguousKeys.has(k)) };
  });
  const compose = (message: NotifyMessage): OutgoingMail => ({
    from: options.from!,
    to: message.to,
    ...renderMail(message, templates, today),
    messageId: idOf(message),
    kind: message.kind,
  });

  // Sending holds the lock of the reminder ledger (docs/reminders.md "Exactly once"): a second
  // run waits, then finds in the ledger what this one sent. Asking completion did not need it.
  await services.lockState("reminders", "simadmin progress notify");
  await ledger.reload();
  const transport = await delivery.open();
  services.addCleanup(() => transport.close());
  try {
    await transport.verify();
  } catch (error) {
    throw new ServiceError(`cannot reach the mail server ${delivery.describe}: ${(error as Error).message}; nothing was sent`, {
      hint: "check --smtp / SIMADMIN_SMTP_URL (host, port, user and password) and that this machine may connect to it",
      cause: error,
    });
  }
  printer.info(`sending ${plural(kept.length, "message")} through ${delivery.describe}`);
  const progress = await printer.progress();
  let done = 0;
  const outcome = await (async () => {
    try {
      return await sendAll(items, {
        ledger,
        delivery: transport,
        compose,
        narrow: (message, won) => {
          const keys = messageKeys(message);
          return message.kind === "digest" ? message : { ...message, pairs: message.pairs.filter((_, i) => won.has(keys[i]!)) };
        },
        now: () => new Date(services.clock.now()).toISOString(),
        resendAmbiguous: options.resendAmbiguous,
        signal: services.signal,
        onResult: () => progress.update(`sending ${++done}/${kept.length} messages`),
      });
    } finally {
      progress.done();
    }
  })();

  const records = [
    ...outcome.results.map((r) => messageRecord(r.message, r.status, r.messageId, r.detail ?? "")),
    ...heldRecords,
    ...leftUnsure,
  ];
  const count = (status: string): number => outcome.results.filter((r) => r.status === status).length;
  const sent = count("sent");
  const note =
    `${summary}: ${sent} sent through ${delivery.describe}` +
    [
      ["refused", count("refused")],
      ["ambiguous", count("ambiguous")],
      ["skipped (another run)", count("skipped")],
      ["not sent", count("not-sent")],
      ["held by --max", held.length],
    ]
      .filter(([, n]) => (n as number) > 0)
      .map(([w, n]) => `, ${n} ${w}`)
      .join("");
  const table = { kind: "records" as const, records, tableColumns: TABLE_COLUMNS, knownFields: NOTIFY_COLUMNS, note };

  if (outcome.unreachable !== undefined) {
    return {
      ...table,
      failure: new ServiceError(
        `the mail server ${delivery.describe} could not be reached after ${plural(sent, "message")}: ${outcome.unreachable}`,
        {
          hint: "the messages not sent are not recorded: run again once the server is back",
        },
      ),
    };
  }
  if (count("ambiguous") > 0) {
    const n = count("ambiguous");
    return {
      ...table,
      failure: new ServiceError(
        `${plural(n, "message")} may or may not have reached ${delivery.describe} (the connection broke during the transaction)`,
        {
          hint: "listed with status ambiguous: they are not sent again; check the mailboxes, then run with --resend-ambiguous the same day if they are missing",
        },
      ),
    };
  }
  // One recipient may have had several messages refused (steps of different due dates): named once.
  const refusedTo = [...new Set(outcome.results.filter((r) => r.status === "refused").map((r) => r.message.to))];
  if (refusedTo.length > 0) {
    return {
      ...table,
      failure: new InvalidDataError(`the mail server refused ${plural(refusedTo.length, "recipient")}: ${refusedTo.join(", ")}`, {
        hint: "correct their addresses in the file; the next run tries them again",
      }),
    };
  }
  return table;
});
