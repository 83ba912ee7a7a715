/**
 * Git's plumbing for a landing: reading commits, merging trees without a
 * checkout (`git merge-tree --write-tree`, many merges in one run with
 * `--stdin` where git has it), and writing commit objects in one run
 * (`git hash-object --stdin-paths`). Nothing here touches a ref, an index or
 * a working tree: a landing that stops after these leaves only objects that
 * nothing points at, which git's own gc takes away.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { SkiffError } from "../errors.ts";
import { gitComplaint, runGit } from "../worktree/mod.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** How long one plumbing run may take: a merge of a big tree is slow. */
const PLUMBING_TIMEOUT_MS = 300_000;

/** One commit, as its raw object says. */
export interface RawCommit {
  /** Its id. */
  id: string;
  /** Its tree. */
  tree: string;
  /** Its parents. */
  parents: string[];
  /** The `author` line's value: `Name <email> time zone`. */
  author: string;
  /** The headers after the committer that are kept when it is rewritten (`encoding`). */
  extra: string[];
  /** Its message, as stored. */
  message: string;
  /** Its subject: the message's first line. */
  subject: string;
}

/** Runs a plumbing command in `cwd`, throwing exit `ERROR` with git's words when it fails. */
async function plumb(
  cwd: string,
  args: string[],
  input?: Uint8Array | string,
): Promise<Uint8Array> {
  const result = await runGit(args, { cwd, input, timeoutMs: PLUMBING_TIMEOUT_MS });
  if (result.code !== 0) {
    throw new SkiffError(`git ${args[0]} failed: ${gitComplaint(result)}`, {
      exit: "ERROR",
      details: { git: args.slice(0, 2) },
    });
  }
  return result.stdout;
}

/** Parses a raw commit object. */
function parseCommit(id: string, body: string): RawCommit {
  const end = body.indexOf("\n\n");
  const head = end === -1 ? body : body.slice(0, end);
  const message = end === -1 ? "" : body.slice(end + 2);
  let tree = "";
  let author = "";
  const parents: string[] = [];
  const extra: string[] = [];
  let continued = false;
  for (const line of head.split("\n")) {
    // A header's continuation lines (a signature's) start with a space.
    if (line.startsWith(" ")) {
      if (continued) extra[extra.length - 1] += `\n${line}`;
      continue;
    }
    continued = false;
    const space = line.indexOf(" ");
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === "tree") tree = value;
    else if (key === "parent") parents.push(value);
    else if (key === "author") author = value;
    else if (key === "encoding") {
      extra.push(line);
      continued = true;
    }
    // committer, gpgsig and mergetag are not kept: a rewritten commit gets a new committer
    // and no signature, as `git rebase` does.
  }
  return { id, tree, parents, author, extra, message, subject: message.split("\n")[0] };
}

/** Reads commits `ids` (in one run of `git cat-file --batch`). */
export async function readCommits(cwd: string, ids: readonly string[]): Promise<RawCommit[]> {
  if (ids.length === 0) return [];
  const out = await plumb(cwd, ["cat-file", "--batch"], ids.join("\n") + "\n");
  const commits: RawCommit[] = [];
  let at = 0;
  for (const id of ids) {
    const eol = out.indexOf(10, at);
    const header = decoder.decode(out.subarray(at, eol)).split(" ");
    if (header[1] !== "commit") {
      throw new SkiffError(`${id} is not a commit`, { exit: "ERROR" });
    }
    const size = Number(header[2]);
    const body = decoder.decode(out.subarray(eol + 1, eol + 1 + size));
    commits.push(parseCommit(header[0], body));
    at = eol + 1 + size + 1;
  }
  return commits;
}

/** The commits of `tip` that `base` lacks, oldest first, merges left out (as `git rebase` does). */
export async function commitsToLand(cwd: string, base: string, tip: string): Promise<string[]> {
  const out = decoder.decode(
    await plumb(cwd, ["rev-list", "--reverse", "--topo-order", "--no-merges", `${base}..${tip}`]),
  );
  return out.split("\n").filter((l) => l !== "");
}

/** How one merge of two commits came out. */
export interface TreeMerge {
  /** The merged tree (with conflict markers in the files that conflict). */
  tree: string;
  /** The files that conflict; empty when the merge is clean. */
  conflicts: string[];
}

/** Whether this git's `merge-tree` takes many merges on stdin (asked once per process). */
let stdinMerges: boolean | undefined;

/** Parses `merge-tree --write-tree --name-only -z --no-messages` output after its status field. */
function parseMerge(fields: string[], at: number): { merge: TreeMerge; next: number } {
  const tree = fields[at];
  const conflicts: string[] = [];
  let i = at + 1;
  while (i < fields.length && fields[i] !== "") {
    if (!conflicts.includes(fields[i])) conflicts.push(fields[i]);
    i++;
  }
  return { merge: { tree, conflicts }, next: i + 1 };
}

/**
 * Merges each pair `[ours, theirs]` into a tree, as `git merge` would,
 * without a checkout: in one run where git takes `--stdin`, else one run
 * each. Needs git 2.38 or newer.
 */
export async function mergeTrees(
  cwd: string,
  pairs: readonly (readonly [string, string])[],
): Promise<TreeMerge[]> {
  if (pairs.length === 0) return [];
  const args = ["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages"];
  if (stdinMerges !== false && pairs.length > 1) {
    const input = pairs.map(([a, b]) => `${a} ${b}\n`).join("");
    const result = await runGit([...args, "--stdin"], {
      cwd,
      input,
      timeoutMs: PLUMBING_TIMEOUT_MS,
    });
    if (result.code === 0) {
      stdinMerges = true;
      const fields = decoder.decode(result.stdout).split("\0");
      const merges: TreeMerge[] = [];
      let at = 0;
      for (let n = 0; n < pairs.length; n++) {
        // Each merge: its status (1 clean, 0 conflicts), its tree, its conflicted files, "".
        const { merge, next } = parseMerge(fields, at + 1);
        merges.push(merge);
        at = next;
      }
      return merges;
    }
    if (result.code !== 129) {
      throw new SkiffError(`git merge-tree failed: ${gitComplaint(result)}`, { exit: "ERROR" });
    }
    stdinMerges = false; // An older git: one merge a run.
  }
  const merges: TreeMerge[] = [];
  for (const [a, b] of pairs) {
    const result = await runGit([...args, a, b], { cwd, timeoutMs: PLUMBING_TIMEOUT_MS });
    if (result.code !== 0 && result.code !== 1) {
      const old = result.code === 129 ? ": skiff land needs git 2.38 or newer" : "";
      throw new SkiffError(`git merge-tree failed${old || `: ${gitComplaint(result)}`}`, {
        exit: "ERROR",
      });
    }
    merges.push(parseMerge(decoder.decode(result.stdout).split("\0"), 0).merge);
  }
  return merges;
}

/** The tree of commit `commit`. */
export async function treeOf(cwd: string, commit: string): Promise<string> {
  return decoder.decode(await plumb(cwd, ["rev-parse", `${commit}^{tree}`])).trim();
}

/**
 * Who the new commits are by: `git var GIT_AUTHOR_IDENT` and
 * `GIT_COMMITTER_IDENT`, with the time of now. Throws exit `USAGE` when git
 * has no name and email to use.
 */
export async function identities(cwd: string): Promise<{ author: string; committer: string }> {
  const read = async (name: string) => {
    const result = await runGit(["var", name], { cwd, read: true });
    if (result.code !== 0) {
      throw new SkiffError(
        "git has no name and email to make commits with: set them with 'git config user.name' and 'git config user.email'",
        { exit: "USAGE", details: { reason: "no_identity" } },
      );
    }
    return decoder.decode(result.stdout).trim();
  };
  return { author: await read("GIT_AUTHOR_IDENT"), committer: await read("GIT_COMMITTER_IDENT") };
}

/** A commit to write. */
export interface NewCommit {
  /** Its tree. */
  tree: string;
  /** Its parents; `null` stands for the commit written just before it in the same call. */
  parents: (string | null)[];
  /** `Name <email> time zone`. */
  author: string;
  /** `Name <email> time zone`. */
  committer: string;
  /** Headers kept from the commit it rewrites (`encoding`). */
  extra?: string[];
  /** Its message (a final newline is added when missing). */
  message: string;
}

/** The hash algorithm of the repository at `cwd` (`sha1`, or `sha256`). */
async function objectFormat(cwd: string): Promise<"sha1" | "sha256"> {
  const result = await runGit(["rev-parse", "--show-object-format"], { cwd, read: true });
  return decoder.decode(result.stdout).trim() === "sha256" ? "sha256" : "sha1";
}

function commitText(spec: NewCommit, parents: string[]): string {
  const message = spec.message.endsWith("\n") ? spec.message : `${spec.message}\n`;
  return [
    `tree ${spec.tree}`,
    ...parents.map((p) => `parent ${p}`),
    `author ${spec.author}`,
    `committer ${spec.committer}`,
    ...(spec.extra ?? []),
  ].join("\n") + `\n\n${message}`;
}

async function objectId(format: "sha1" | "sha256", body: Uint8Array): Promise<string> {
  const header = encoder.encode(`commit ${body.length}\0`);
  const whole = new Uint8Array(header.length + body.length);
  whole.set(header);
  whole.set(body, header.length);
  const digest = await crypto.subtle.digest(format === "sha1" ? "SHA-1" : "SHA-256", whole);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes `specs` as commit objects, in order, and returns their ids. A
 * parent given as `null` is the commit before it. The ids are worked out
 * here (a commit names its parent's id) and all objects written in one run
 * of git, which must agree on every id.
 */
export async function writeCommits(
  cwd: string,
  scratch: string,
  specs: readonly NewCommit[],
): Promise<string[]> {
  if (specs.length === 0) return [];
  const format = await objectFormat(cwd);
  const ids: string[] = [];
  const paths: string[] = [];
  const dir = Deno.makeTempDirSync({ dir: scratch, prefix: "commits-" });
  try {
    for (const [n, spec] of specs.entries()) {
      const parents = spec.parents.map((p) => p ?? ids[n - 1]);
      const body = encoder.encode(commitText(spec, parents));
      ids.push(await objectId(format, body));
      const path = join(dir, String(n));
      Deno.writeFileSync(path, body);
      paths.push(path);
    }
    const out = decoder.decode(
      await plumb(
        cwd,
        ["hash-object", "-t", "commit", "-w", "--stdin-paths"],
        paths.join("\n") + "\n",
      ),
    ).trim().split("\n");
    if (out.join(" ") !== ids.join(" ")) {
      throw new SkiffError("git wrote other commits than Skiff made: nothing was landed", {
        exit: "ERROR",
      });
    }
    return ids;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** `--numstat` of `from` against `to` (commits or trees), summed. */
export async function diffStat(
  cwd: string,
  from: string,
  to: string,
): Promise<{ files: number; added: number; removed: number; names: string[] }> {
  const out = decoder.decode(
    await plumb(cwd, ["diff", "--numstat", "-z", "--no-renames", from, to]),
  );
  let files = 0;
  let added = 0;
  let removed = 0;
  const names: string[] = [];
  for (const field of out.split("\0")) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
    if (!match) continue;
    files++;
    added += match[1] === "-" ? 0 : Number(match[1]);
    removed += match[2] === "-" ? 0 : Number(match[2]);
    names.push(match[3]);
  }
  return { files, added, removed, names };
}
