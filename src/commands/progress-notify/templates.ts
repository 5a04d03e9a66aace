import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LocalFileError, UsageError, isErrnoError } from "../../errors.js";
import {
  BUILT_IN_TEMPLATES,
  DIGEST_PLACEHOLDERS,
  REMINDER_PLACEHOLDERS,
  unknownPlaceholder,
  type TemplateSet,
  type Templates,
} from "../../domain/reminders/templates.js";

// --template <dir> (docs/reminders.md "Templates"): subject.txt, body.txt and body.html for the
// reminders, and optionally digest-subject.txt, digest-body.txt, digest-body.html for the
// digests (the built-in ones otherwise). Read and checked before anything is asked or sent.

async function readPart(dir: string, name: string, optional: boolean): Promise<string | undefined> {
  const path = join(dir, name);
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (optional && isErrnoError(error) && error.code === "ENOENT") return undefined;
    throw LocalFileError.fromSystem(error, path, "read", `--template needs ${name} in ${dir}`);
  }
}

function check(dir: string, set: TemplateSet, known: readonly string[], prefix: string): void {
  const unknown = unknownPlaceholder(set, known);
  if (unknown) {
    const file = `${prefix}${unknown.part === "subject" ? "subject.txt" : unknown.part === "text" ? "body.txt" : "body.html"}`;
    throw new UsageError(`--template: ${join(dir, file)} uses {{${unknown.name}}}, which no message has`, {
      hint: `known placeholders: ${known.join(", ")}`,
    });
  }
}

export async function loadTemplates(dir: string | undefined, columns: readonly string[]): Promise<Templates> {
  if (dir === undefined) return BUILT_IN_TEMPLATES;
  const reminder: TemplateSet = {
    // Not trimmed here: renderMail trims the subject once it is filled (domain/reminders/templates.ts).
    subject: (await readPart(dir, "subject.txt", false))!,
    text: (await readPart(dir, "body.txt", false))!,
    html: (await readPart(dir, "body.html", false))!,
  };
  check(dir, reminder, [...REMINDER_PLACEHOLDERS, ...columns], "");
  const digestParts = await Promise.all(
    ["digest-subject.txt", "digest-body.txt", "digest-body.html"].map((name) => readPart(dir, name, true)),
  );
  const digest: TemplateSet = {
    subject: digestParts[0] ?? BUILT_IN_TEMPLATES.digest.subject,
    text: digestParts[1] ?? BUILT_IN_TEMPLATES.digest.text,
    html: digestParts[2] ?? BUILT_IN_TEMPLATES.digest.html,
  };
  check(dir, digest, DIGEST_PLACEHOLDERS, "digest-");
  return { reminder, digest };
}
