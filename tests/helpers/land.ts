/**
 * Repositories for the landing's tests, and the proof that a refusal left
 * one exactly as it was: every ref, the index (as git lists it and as the
 * bytes of the file), a hash of every file of a checkout, and git's status.
 *
 * @module
 */

import { join } from "node:path";
import { addProject, commitAll, defaultWorktreePath, git, makeRepo } from "./git.ts";
import { BASH, type SkiffEnv } from "./skiff.ts";

/** Makes a repository with a name and email for commits (the test HOME has none), as project `name`. */
export async function landingRepo(
  skiff: SkiffEnv,
  name = "demo",
  files?: Record<string, string>,
): Promise<string> {
  const repo = await makeRepo(join(skiff.root, name), files);
  git(repo, "config", "user.name", "Skiff Test");
  git(repo, "config", "user.email", "test@skiff.invalid");
  await addProject(skiff, name, repo);
  return repo;
}

/** Starts a shell pane in a new worktree `name` of project `project`; returns the worktree's folder. */
export async function shellInWorktree(
  skiff: SkiffEnv,
  project: string,
  name: string,
): Promise<string> {
  await skiff.ok(["new", "--project", project, "--worktree", name, "--", ...BASH]);
  return defaultWorktreePath(skiff, project, name);
}

/** Writes `files` in `dir` and commits them with `message`; returns the commit. */
export async function commitFiles(
  dir: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return commitAll(dir, message);
}

/** Runs git without taking optional locks, so a look never rewrites the index it looks at. */
function look(cwd: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { GIT_OPTIONAL_LOCKS: "0", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" },
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A hash of every file under `dir` but its `.git`: path, kind, mode and content. */
async function filesHash(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, rel: string) => {
    const entries = [...Deno.readDirSync(at)].sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (rel === "" && entry.name === ".git") continue;
      const path = join(at, entry.name);
      const name = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const info = Deno.lstatSync(path);
      if (info.isSymlink) out.push(`${name} -> ${Deno.readLinkSync(path)}`);
      else if (info.isDirectory) await walk(path, name);
      else {
        out.push(
          `${name} ${(info.mode ?? 0).toString(8)} ${await sha256(Deno.readFileSync(path))}`,
        );
      }
    }
  };
  await walk(dir, "");
  return out;
}

/** What "exactly as before" compares, for a checkout and its repository. */
export interface Snapshot {
  /** Every ref and what it holds (`git for-each-ref`). */
  refs: string;
  /** The index as git lists it (`git ls-files -s`). */
  index: string;
  /** A hash of the index file's bytes. */
  indexFile: string;
  /** A hash of every file of the checkout. */
  files: string[];
  /** `git status --porcelain`. */
  status: string;
  /** Whether a rebase or merge was left under way (its folders or files in the git folder). */
  leftovers: string[];
}

/**
 * Takes a {@linkcode Snapshot} of the checkout at `dir`. The index file is
 * hashed before git reads it, and git runs without optional locks, so the
 * snapshot itself changes nothing.
 */
export async function snapshot(dir: string): Promise<Snapshot> {
  const indexPath = look(dir, "rev-parse", "--path-format=absolute", "--git-path", "index").trim();
  const gitDir = look(dir, "rev-parse", "--path-format=absolute", "--git-dir").trim();
  const indexFile = await sha256(Deno.readFileSync(indexPath));
  const leftovers = ["rebase-merge", "rebase-apply", "MERGE_HEAD", "CHERRY_PICK_HEAD", "index.lock"]
    .filter((name) => {
      try {
        Deno.lstatSync(join(gitDir, name));
        return true;
      } catch {
        return false;
      }
    });
  return {
    refs: look(dir, "for-each-ref", "--format=%(refname) %(objectname)"),
    index: look(dir, "ls-files", "-s"),
    indexFile,
    files: await filesHash(dir),
    status: look(dir, "status", "--porcelain", "--untracked-files=all"),
    leftovers,
  };
}

/** The number git itself counts of commits in `range` (`git rev-list --count`). */
export function gitCount(dir: string, range: string): number {
  return Number(git(dir, "rev-list", "--count", range));
}

/** The first-parent subjects of `ref`, newest first. */
export function subjects(dir: string, ref: string): string[] {
  return git(dir, "log", "--format=%s", ref).split("\n");
}

/** Sets `check = COMMAND` on project `project` in the test's projects.toml. */
export async function setCheck(skiff: SkiffEnv, project: string, command: string): Promise<void> {
  const lines = (await Deno.readTextFile(skiff.configFile)).split("\n");
  const at = lines.indexOf(`[projects.${project}]`);
  if (at === -1) throw new Error(`no [projects.${project}] in projects.toml`);
  let end = lines.findIndex((line, i) => i > at && line.startsWith("["));
  if (end === -1) end = lines.length;
  const table = lines.slice(at + 1, end).filter((line) => !line.startsWith("check ="));
  lines.splice(at + 1, end - at - 1, `check = ${JSON.stringify(command)}`, ...table);
  await Deno.writeTextFile(skiff.configFile, lines.join("\n"));
}

/** The JSON error a refused `skiff … --json` printed on stderr, with its exit code. */
export interface Refusal {
  /** The exit code. */
  code: number;
  /** `error` of the JSON on stderr. */
  error: Record<string, unknown> & { code: string; exit: number; message: string };
}

/** Runs `skiff ARGS… --json`, which must fail; returns its exit code and JSON error. */
export async function refusedJson(skiff: SkiffEnv, args: string[]): Promise<Refusal> {
  const result = await skiff.run([...args, "--json"]);
  if (result.code === 0) throw new Error(`skiff ${args.join(" ")} succeeded: ${result.stdout}`);
  const lines = result.stderr.trim().split("\n");
  return { code: result.code, error: JSON.parse(lines.at(-1)!).error };
}
