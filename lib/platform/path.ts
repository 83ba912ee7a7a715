/**
 * POSIX paths, as `node:path` computes them on Linux and macOS (the only
 * systems Skiff runs on). Deno loads its `node:path` on first import, which
 * costs a command's start 5–9 ms; these few functions cost nothing to load.
 * `tests/unit/platform/path.test.ts` checks them against `node:path`.
 *
 * @module
 */

/** The separator of path segments. */
export const sep = "/";

/** The separator of entries in `PATH`. */
export const delimiter = ":";

/** Whether `path` starts at the root. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** The segments of `path` with `.` and `..` worked out; `..` above the start is kept when allowed. */
function collapse(path: string, keepAboveStart: boolean): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (keepAboveStart) out.push("..");
  }
  return out.join("/");
}

/** `path` without `.`, `..` and repeated separators; a trailing separator stays. */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = isAbsolute(path);
  let body = collapse(path, !absolute);
  if (body === "" && !absolute) body = ".";
  if (body !== "" && path.endsWith("/")) body += "/";
  return absolute ? `/${body}` : body;
}

/** The parts joined with separators, then normalized; `.` when nothing is left. */
export function join(...parts: string[]): string {
  const joined = parts.filter((part) => part !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/**
 * An absolute path: the parts taken from the right until one is absolute,
 * else against the current folder; normalized, without a trailing separator.
 */
export function resolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(path); i--) {
    if (parts[i] === "") continue;
    path = path === "" ? parts[i] : `${parts[i]}/${path}`;
  }
  if (!isAbsolute(path)) path = path === "" ? Deno.cwd() : `${Deno.cwd()}/${path}`;
  return `/${collapse(path, false)}`;
}

/**
 * The folder part of `path`: everything before the separator in front of its
 * last segment (trailing separators do not count).
 */
export function dirname(path: string): string {
  if (path === "") return ".";
  let cut = -1;
  let inSegment = false;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] !== "/") inSegment = true;
    else if (inSegment) {
      cut = i;
      break;
    }
  }
  if (cut === -1) return isAbsolute(path) ? "/" : ".";
  // `//x` keeps its two leading separators, as POSIX allows them a meaning.
  if (cut === 1 && isAbsolute(path)) return "//";
  return path.slice(0, cut);
}

/** The last segment of `path`, trailing separators left out. */
export function basename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** The path from folder `from` to `to`, both resolved first; `""` when they are the same. */
export function relative(from: string, to: string): string {
  const a = resolve(from).split("/").filter((s) => s !== "");
  const b = resolve(to).split("/").filter((s) => s !== "");
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return [...Array(a.length - same).fill(".."), ...b.slice(same)].join("/");
}
