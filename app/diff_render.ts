/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The Diff view's renderer: diff2html (npm `diff2html`), bundled on its own
 * (`/diff.js`) and loaded the first time a Diff view opens, so the page's
 * start does not carry it. The patch is parsed once; each file is drawn on
 * its own when the view comes near it, so a diff of thousands of files shows
 * its first ones at once (docs/landing.md has the measurements).
 *
 * @module
 */

import { html, parse } from "diff2html";
import { ColorSchemeType } from "diff2html/lib-esm/types.js";

/** One parsed file of a patch. */
export type ParsedFile = ReturnType<typeof parse>[number];

/** How diff2html draws: one column, light or dark as the page, long files cut short. */
const CONFIG = {
  outputFormat: "line-by-line",
  drawFileList: false,
  // Pairing removed and added lines costs quadratic time in big hunks: neighbours are still marked.
  matching: "none",
  // A file of more than this many changed lines says so instead of freezing the page.
  diffMaxChanges: 20_000,
  diffMaxLineLength: 10_000,
  colorScheme: ColorSchemeType.AUTO,
} as const;

/** The files of `patch`, parsed (git's unified diff, as `skiff diff` makes it). */
export function parseFiles(patch: string): ParsedFile[] {
  return parse(patch, CONFIG);
}

/** The path a parsed file is known by: its new name, or its old one when it was deleted. */
export function parsedPath(file: ParsedFile): string {
  return file.newName === "/dev/null" || file.newName === "dev/null" ? file.oldName : file.newName;
}

/** About how tall a file will be once drawn (px): its header and each line of its hunks. */
export function estimatedHeight(file: ParsedFile): number {
  const lines = file.blocks.reduce((sum, block) => sum + 1 + block.lines.length, 0);
  return 46 + 20 * lines;
}

/** One file, drawn as HTML. */
export function fileHtml(file: ParsedFile): string {
  return html([file], CONFIG);
}
