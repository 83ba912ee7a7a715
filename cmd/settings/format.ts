/**
 * The text form of the Skiff agent's settings.
 *
 * @module
 */

import { SETTING_KEYS, type SettingsReport } from "../../lib/skipper/mod.ts";

/** One line per setting, defaults marked, and the folder's problem under it. */
export function settingsLines(report: SettingsReport): string[] {
  const width = Math.max(...SETTING_KEYS.map((k) => k.length));
  const lines: string[] = [];
  for (const key of SETTING_KEYS) {
    let value = String(report.settings[key]);
    if (key === "folder" && report.folder.path !== null && report.folder.path !== value) {
      value += `  (${report.folder.path})`;
    }
    if (report.defaults.includes(key)) value += "  [default]";
    lines.push(`${key.padEnd(width)}  ${value}`);
  }
  if (!report.folder.usable) {
    lines.push(`${"".padEnd(width)}  cannot be used: ${report.folder.reason}`);
  }
  return lines;
}
