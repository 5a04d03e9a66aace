#!/usr/bin/env node
// The baseline of bench/exports.mjs: what any Node script would do to export the same report
// — fetch each window (the requests the CLI sent, from BARE_REQUESTS), JSON.parse the answer,
// and write its records with the same library the CLI uses — and nothing more. Not run by
// bench/run.mjs itself (it takes arguments): bench/exports.mjs starts it.
//
//   BARE_REQUESTS='[…]' node bench/exports-bare.mjs csv|ndjson|xlsx <host:port> <out file>
import { createWriteStream } from "node:fs";
import { request } from "node:http";
import { once } from "node:events";

const [format, hostPort, out] = process.argv.slice(2);
const [host, port] = hostPort.split(":");
const requests = JSON.parse(process.env.BARE_REQUESTS ?? "[]");

function fetchWindow(r) {
  return new Promise((done, reject) => {
    // A fresh connection each time: a kept-alive one may be closed by the server while a slow
    // writer works through the previous window.
    const req = request(
      { host, port: Number(port), method: r.method, path: r.path, headers: { ...r.headers, host: hostPort }, agent: false },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => done(Buffer.concat(chunks)));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(Buffer.from(r.body, "latin1"));
  });
}

/** The answer's record list: a top-level array, or the one array member of an object. */
const recordsOf = (answer) => (Array.isArray(answer) ? answer : (Object.values(answer).find(Array.isArray) ?? []));

async function write(stream, text) {
  if (!stream.write(text)) await once(stream, "drain");
}

if (format === "xlsx") {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet("user-results");
  let columns;
  for (const r of requests) {
    for (const record of recordsOf(JSON.parse((await fetchWindow(r)).toString("utf8")))) {
      if (!columns) {
        columns = Object.keys(record);
        sheet.addRow(columns).commit();
      }
      sheet.addRow(columns.map((column) => record[column])).commit();
    }
  }
  await workbook.commit();
} else if (format === "csv") {
  const { stringify } = await import("csv-stringify");
  const file = createWriteStream(out);
  let csv;
  let columns;
  for (const r of requests) {
    for (const record of recordsOf(JSON.parse((await fetchWindow(r)).toString("utf8")))) {
      if (!csv) {
        columns = Object.keys(record);
        csv = stringify({ header: true, columns });
        csv.pipe(file);
      }
      if (!csv.write(columns.map((column) => record[column]))) await once(csv, "drain");
    }
  }
  (csv ?? file).end();
  await once(file, "close");
} else {
  const file = createWriteStream(out);
  for (const r of requests) {
    let text = "";
    for (const record of recordsOf(JSON.parse((await fetchWindow(r)).toString("utf8")))) text += `${JSON.stringify(record)}\n`;
    await write(file, text);
  }
  file.end();
  await once(file, "close");
}
