// @ts-nocheck
import { badRequest } from "./http-error.js";

export interface BulkImportUpload {
  organizationId: string | undefined;
  fileName: string | undefined;
  csvText: string | undefined;
}

/**
 * Reads the two parts of a bulk-import request (docs/service-spec.md §4.8) with the WHATWG FormData parser
 * built into Node (undici), which handles boundaries, quoting and binary parts correctly.
 */
export async function parseBulkImportForm(contentType: string | undefined, body: Buffer): Promise<BulkImportUpload> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw badRequest("bulk-import expects Content-Type multipart/form-data with the parts organizationId and file");
  }
  let form: FormData;
  try {
    form = await new Request("http://sandbox.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    }).formData();
  } catch (error) {
    throw badRequest(`multipart body could not be parsed: ${(error as Error).message}`);
  }
  const org = form.get("organizationId");
  const file = form.get("file");
  let fileName: string | undefined;
  let csvText: string | undefined;
  if (typeof file === "string") {
    // A plain text part instead of a file part: accepted, the content is what matters.
    csvText = file;
  } else if (file) {
    fileName = file.name;
    try {
      csvText = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      throw badRequest("file is not valid UTF-8 text");
    }
  }
  return {
    organizationId: typeof org === "string" ? org : org ? await org.text() : undefined,
    fileName,
    csvText,
  };
}
