/**
 * The steps that change a repository during a landing, each with its undo,
 * and the journal that makes them all or nothing.
 *
 * Three kinds of step, all with real git:
 *
 * - `ref`: `git update-ref REF NEW OLD`, a compare-and-swap: it fails when
 *   the ref is no longer OLD, so nobody's commit is ever overwritten. Undone
 *   by the swap back, again only from NEW.
 * - `tree`: `git read-tree -m -u FROM TO` in a checkout: its index and files
 *   go from one commit's tree to another's, refused by git when a file is not
 *   as the index says. The index file is copied aside first; the undo reads
 *   the tree back and puts that copy back, byte for byte.
 * - `index`: the checkout's index replaced by another (the one `--commit`
 *   built), through git's own `index.lock`; undone by putting the copy back.
 *
 * Before each step runs, the journal (`skiff/land.journal.json` in the
 * repository's git folder, written whole through a rename) records it. A
 * landing that fails undoes its steps from the last. A landing whose process
 * died leaves the journal, and the next landing of that repository (which
 * then holds the lock) finishes it: it undoes every step, unless the journal
 * says the landing was whole (its last step done), when only the journal
 * goes. An undo puts back only what is still as the step left it: a ref
 * someone moved since, or an index someone changed since, stays as it is,
 * and the line says so.
 *
 * @module
 */

import { join } from "../platform/path.ts";
import { ensureDir, pathExists, writeFileAtomic } from "../platform/files.ts";
import { SkiffError } from "../errors.ts";
import { gitComplaint, runGit } from "../worktree/mod.ts";

/** How long a step's git may take: a checkout of a big tree is slow. */
const STEP_TIMEOUT_MS = 600_000;

/** A compare-and-swap of a ref. */
export interface RefStep {
  /** The kind. */
  kind: "ref";
  /** The folder git runs in (any checkout of the repository). */
  cwd: string;
  /** The full ref, such as `refs/heads/main`. */
  ref: string;
  /** The commit it must hold before. */
  old: string;
  /** The commit it holds after. */
  new: string;
  /** The reflog's message. */
  reason: string;
}

/** A checkout's index and files moved from one commit's tree to another's. */
export interface TreeStep {
  /** The kind. */
  kind: "tree";
  /** The checkout. */
  cwd: string;
  /** Its index file. */
  index: string;
  /** Where the index is copied first. */
  backup: string;
  /** The commit it is at. */
  from: string;
  /** The commit it goes to. */
  to: string;
}

/** A checkout's index replaced by another one. */
export interface IndexStep {
  /** The kind. */
  kind: "index";
  /** Its index file. */
  index: string;
  /** Where the index is copied first (missing when it had none). */
  backup: string;
  /** The index that takes its place. */
  replacement: string;
}

/** A step of a landing. */
export type Step = RefStep | TreeStep | IndexStep;

/** What the journal holds. */
interface JournalFile {
  /** The process that wrote it. */
  pid: number;
  /** When its landing started (ISO 8601). */
  started: string;
  /** What it lands, for the line a recovery prints. */
  what: string;
  /** The steps begun, in order. */
  steps: Step[];
  /** Whether every step was done: the landing is whole. */
  landed: boolean;
}

/** A step failed because the repository was not as the landing read it. */
export class StepRefused extends Error {
  /** The step. */
  readonly step: Step;
  /** What the ref held instead (a `ref` step), or null. */
  readonly found: string | null;

  /** Makes the error. */
  constructor(step: Step, message: string, found: string | null = null) {
    super(message);
    this.name = "StepRefused";
    this.step = step;
    this.found = found;
  }
}

const decoder = new TextDecoder();

/** What a ref holds now, or null when it does not exist. */
export async function refValue(cwd: string, ref: string): Promise<string | null> {
  const result = await runGit(["rev-parse", "--verify", "--quiet", ref], { cwd, read: true });
  return result.code === 0 ? decoder.decode(result.stdout).trim() : null;
}

async function swapRef(cwd: string, ref: string, to: string, from: string, reason: string) {
  return await runGit(["update-ref", "-m", reason, ref, to, from], { cwd });
}

/** The tree the index of the checkout at `cwd` holds. */
async function indexTree(cwd: string): Promise<string | null> {
  const result = await runGit(["write-tree"], { cwd });
  return result.code === 0 ? decoder.decode(result.stdout).trim() : null;
}

async function commitTree(cwd: string, commit: string): Promise<string | null> {
  const result = await runGit(["rev-parse", "--verify", "--quiet", `${commit}^{tree}`], {
    cwd,
    read: true,
  });
  return result.code === 0 ? decoder.decode(result.stdout).trim() : null;
}

/** Replaces `index` with the bytes of `source` the way git writes an index: through `index.lock`. */
function putIndex(index: string, source: string): void {
  const lock = `${index}.lock`;
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(lock, { write: true, createNew: true, mode: 0o644 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new SkiffError(
        `Another git process holds ${lock}: wait for it to end (or remove the file if none runs), then land again`,
        { exit: "CONFLICT", details: { reason: "index_locked" } },
      );
    }
    throw error;
  }
  try {
    file.writeSync(Deno.readFileSync(source));
    file.syncSync();
  } finally {
    file.close();
  }
  Deno.renameSync(lock, index);
}

/** Runs one step. Throws {@linkcode StepRefused} when git refuses it (nothing was changed then). */
export async function runStep(step: Step): Promise<void> {
  if (step.kind === "ref") {
    const result = await swapRef(step.cwd, step.ref, step.new, step.old, step.reason);
    if (result.code !== 0) {
      throw new StepRefused(
        step,
        `${step.ref} moved: ${gitComplaint(result)}`,
        await refValue(step.cwd, step.ref),
      );
    }
    return;
  }
  if (step.kind === "index") {
    if (pathExists(step.index)) Deno.copyFileSync(step.index, step.backup);
    putIndex(step.index, step.replacement);
    return;
  }
  if (pathExists(step.index)) Deno.copyFileSync(step.index, step.backup);
  const result = await runGit(["read-tree", "-m", "-u", step.from, step.to], {
    cwd: step.cwd,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  if (result.code !== 0) {
    throw new StepRefused(
      step,
      `the files of ${step.cwd} are not as git says: ${gitComplaint(result)}`,
    );
  }
}

/**
 * Undoes a step that ran (or may have run, after a crash), only where the
 * repository is still as the step left it. Returns a line for each thing it
 * could not put back (empty when all went back).
 */
export async function undoStep(step: Step): Promise<string[]> {
  if (step.kind === "ref") {
    const now = await refValue(step.cwd, step.ref);
    if (now === step.old) return [];
    if (now !== step.new) {
      return [`${step.ref} moved on to ${now} since; it was left there`];
    }
    const result = await swapRef(step.cwd, step.ref, step.old, step.new, `${step.reason} (undone)`);
    return result.code === 0 ? [] : [`${step.ref} could not be put back: ${gitComplaint(result)}`];
  }
  if (step.kind === "index") {
    if (!pathExists(step.backup)) return [];
    putIndex(step.index, step.backup);
    return [];
  }
  // The index tells whether the step ran: it holds the tree of `to` then, of `from` if not.
  const held = await indexTree(step.cwd);
  const [from, to] = [await commitTree(step.cwd, step.from), await commitTree(step.cwd, step.to)];
  if (held !== null && held === to && from !== to) {
    const result = await runGit(["read-tree", "-m", "-u", step.to, step.from], {
      cwd: step.cwd,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    if (result.code !== 0) {
      return [`the files of ${step.cwd} could not be put back: ${gitComplaint(result)}`];
    }
  } else if (held !== from) {
    // Someone changed the index since: theirs stays.
    return [`the index of ${step.cwd} changed since the landing read it; it was left as it is`];
  }
  // The same tree as before: the copy puts back its bytes too (stat data and all).
  if (pathExists(step.backup)) putIndex(step.index, step.backup);
  return [];
}

/** The folder in the repository's git folder where a landing keeps its journal and copies. */
export function landFolder(commonDir: string): string {
  return join(commonDir, "skiff");
}

function journalPath(commonDir: string): string {
  return join(landFolder(commonDir), "land.journal.json");
}

/** The steps of one landing, journaled; run them in order, then {@linkcode Journal.finish}. */
export class Journal {
  readonly #path: string;
  readonly #data: JournalFile;
  #files: string[] = [];

  /** Starts a journal in the repository whose git folder is `commonDir`. */
  constructor(commonDir: string, what: string) {
    ensureDir(landFolder(commonDir));
    this.#path = journalPath(commonDir);
    this.#data = {
      pid: Deno.pid,
      started: new Date().toISOString(),
      what,
      steps: [],
      landed: false,
    };
  }

  /** A path for a copy this landing keeps until it ends (an index copy). */
  scratchFile(name: string): string {
    const path = join(dirname(this.#path), `${Deno.pid}-${this.#files.length}-${name}`);
    this.#files.push(path);
    return path;
  }

  #save(): void {
    writeFileAtomic(this.#path, JSON.stringify(this.#data, null, 1) + "\n", { mode: 0o600 });
  }

  /** Records `step`, then runs it. */
  async run(step: Step): Promise<void> {
    this.#data.steps.push({ ...step });
    this.#save();
    await runStep(step);
  }

  /** Records that every step was done: a crash from here is not undone. */
  landed(): void {
    this.#data.landed = true;
    this.#save();
  }

  /** Undoes every step begun, the last first; returns what could not be put back. */
  async undo(): Promise<string[]> {
    const problems: string[] = [];
    for (const step of [...this.#data.steps].reverse()) problems.push(...await undoStep(step));
    this.finish();
    return problems;
  }

  /** Ends the journal and its copies: the landing is whole (or wholly undone). */
  finish(): void {
    for (const path of [...this.#files, this.#path]) {
      try {
        Deno.removeSync(path);
      } catch {
        // Never made.
      }
    }
    this.#files = [];
  }
}

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/**
 * Finishes a landing of this repository whose process died (call while
 * holding the landing lock): undoes its steps, unless it was whole. Returns
 * one line saying what was done, or null when there was nothing to finish.
 */
export async function recoverLanding(commonDir: string): Promise<string | null> {
  const path = journalPath(commonDir);
  let data: JournalFile;
  try {
    data = JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    // A journal cut off mid-write never had its step run: the previous journal said all.
    Deno.removeSync(path);
    return null;
  }
  const problems: string[] = [];
  let line: string;
  if (data.landed) {
    line = `a landing of ${data.what} was whole when its process ended (pid ${data.pid})`;
  } else {
    for (const step of [...data.steps].reverse()) problems.push(...await undoStep(step));
    line = `undid a landing of ${data.what} that was cut off (pid ${data.pid}, ${data.started})`;
  }
  Deno.removeSync(path);
  for (const entry of Deno.readDirSync(landFolder(commonDir))) {
    if (entry.name.startsWith(`${data.pid}-`)) {
      Deno.removeSync(join(landFolder(commonDir), entry.name), { recursive: true });
    }
  }
  return problems.length > 0 ? `${line}; ${problems.join("; ")}` : line;
}
