// Types of docs.mjs for the test that checks docs/commands/ and man/ against the declarations.
import type { Declaration, FlagDeclaration } from "../src/commands/types.js";

export interface TopicPage {
  file: string;
  title: string;
  commands: string[];
}

export interface ManualContext {
  declarations: readonly Declaration[];
  globalFlags: readonly FlagDeclaration[];
  description: string;
  version: string;
  environment: readonly (readonly [string, string])[];
  exitCodes: readonly (readonly [number, string])[];
  precedence: string;
  flagText: (flag: FlagDeclaration) => string;
  wrapExample: (example: string, width: number, prompt?: string) => string;
  wrapText: (text: string, width: number, indent?: string) => string;
  topics: readonly TopicPage[];
}

export function slug(name: string): string;
export function roff(text: string): string;
export function topicPages(docsDir: string): TopicPage[];
export function generatedFiles(context: ManualContext): Map<string, string>;
export function staleFiles(root: string, files: Map<string, string>): string[];
export function withManField(packageJson: string, files: Map<string, string>): string;
