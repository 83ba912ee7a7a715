/**
 * What the operating system says about a pane's processes: the foreground
 * process group on its terminal, and a process's working folder.
 *
 * Linux reads `/proc`. Elsewhere the answers are `undefined`, and callers fall
 * back to what they know from the spawn.
 *
 * @module
 */

/** The process in front of a terminal. */
export interface ForegroundProcess {
  /** Its process id (the foreground process group's leader). */
  pid: number;
  /** Its short command name, as the kernel keeps it. */
  comm: string;
  /** Its argument vector. */
  argv: string[];
}

const decoder = new TextDecoder();

function readProc(path: string): string | undefined {
  try {
    return decoder.decode(Deno.readFileSync(path));
  } catch {
    return undefined;
  }
}

/** From a `/proc/PID/stat` line: the process's short name, and its terminal's foreground group. */
function parseStat(stat: string): { comm: string; tpgid: number | undefined } {
  // The command name may hold spaces and parentheses; fields resume after the last ')'.
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  const tpgid = Number(fields[5]);
  return {
    comm: stat.slice(stat.indexOf("(") + 1, close),
    tpgid: Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined,
  };
}

/** Returns the foreground process group id of the terminal `pid` runs on. */
export function foregroundGroup(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  return stat ? parseStat(stat).tpgid : undefined;
}

/** Returns the name and argv of process `pid`. */
export function processInfo(pid: number): ForegroundProcess | undefined {
  const comm = readProc(`/proc/${pid}/comm`);
  const cmdline = readProc(`/proc/${pid}/cmdline`);
  if (comm === undefined || cmdline === undefined) return undefined;
  const argv = cmdline.split("\0");
  if (argv.at(-1) === "") argv.pop();
  return { pid, comm: comm.trim(), argv };
}

/** Returns the process in front of the terminal that `pid` (the pane's child) runs on. */
export function foregroundProcess(pid: number): ForegroundProcess | undefined {
  const group = foregroundGroup(pid);
  return group === undefined ? undefined : processInfo(group);
}

/** How long a process in front is read whole before its argument vector is kept (ms). */
export const ARGV_SETTLE_MS = 2000;

/**
 * Reads the process in front of one terminal again and again, as skiffd does
 * for a pane at each listing and each look at its screen. Once the same
 * process under the same name has been in front for {@linkcode ARGV_SETTLE_MS},
 * its argument vector is kept and only its name is read again: an `exec`
 * renames a process, and so does a Node.js program that sets its title. A
 * process is read whole while it is new, since a child between its fork and
 * its `exec` has its parent's name (skiffd, itself `deno`, starting a `deno`
 * program). With a shell at its prompt that is one read where there were
 * three, which is most of what `skiff ls` costs skiffd with many panes.
 */
export class ForegroundReader {
  #last: { info: ForegroundProcess; since: number; settled: boolean } | undefined;

  /** The process in front of the terminal that `pid` (the pane's child) runs on. */
  read(pid: number, now: number = Date.now()): ForegroundProcess | undefined {
    const stat = readProc(`/proc/${pid}/stat`);
    if (!stat) return undefined;
    const own = parseStat(stat);
    const group = own.tpgid;
    if (group === undefined) return undefined;
    let comm = own.comm;
    if (group !== pid) {
      const front = readProc(`/proc/${group}/stat`);
      if (!front) return undefined;
      comm = parseStat(front).comm;
    }
    const last = this.#last;
    const same = last?.info.pid === group && last.info.comm === comm;
    if (same && last.settled) return { ...last.info, argv: [...last.info.argv] };
    const info = processInfo(group);
    if (!info) {
      this.#last = undefined;
      return undefined;
    }
    const since = same ? last.since : now;
    this.#last = {
      info: { ...info, argv: [...info.argv] },
      since,
      // In the middle of an exec the new name shows before the new arguments do (none yet).
      settled: info.argv.length > 0 && now - since >= ARGV_SETTLE_MS,
    };
    return info;
  }
}

/** Returns the working folder of process `pid`. */
export function processCwd(pid: number): string | undefined {
  try {
    return Deno.readLinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** Returns the resident memory of process `pid` in bytes. */
export function residentBytes(pid: number): number | undefined {
  const status = readProc(`/proc/${pid}/status`);
  const match = status?.match(/^VmRSS:\s+(\d+) kB/m);
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * The processes in session `sid` (Linux; empty elsewhere). A pane's program
 * is a session leader, so its session holds everything it started, jobs in
 * the background and programs that left its process group included.
 */
export function sessionMembers(sid: number): number[] {
  return membersOfSessions([sid]).get(sid) ?? [];
}

/**
 * The processes of each session of `sids`, from one look at every process
 * (Linux; empty elsewhere): with a thousand panes, asking session by session
 * read /proc a thousand times over.
 */
export function membersOfSessions(sids: Iterable<number>): Map<number, number[]> {
  const members = new Map<number, number[]>();
  for (const sid of sids) members.set(sid, []);
  if (members.size === 0) return members;
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = readProc(`/proc/${entry.name}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state, ppid, pgrp, session.
    if (fields[0] !== "Z") members.get(Number(fields[3]))?.push(Number(entry.name));
  }
  return members;
}

/** When process `pid` started, in clock ticks since boot, or undefined when it does not run. */
export function processStartTicks(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // After the name: state, ppid, pgrp, session, … starttime is the 20th.
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  return Number.isFinite(ticks) ? ticks : undefined;
}

/**
 * The CPU time this process has used, user and system, in ms (Linux; 10 ms
 * steps), or undefined where it cannot be read. It goes on across an exec
 * in place, so two readings time what a new program did.
 */
export function ownCpuMs(): number | undefined {
  const stat = readProc("/proc/self/stat");
  if (!stat) return undefined;
  // After the name: utime and stime are the 12th and 13th fields, in 1/100 s.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}

/**
 * Where process `pid` stands: `running`, `exited` (a zombie its parent has
 * not collected yet: it holds no file, no lock, no socket, but `kill -0`
 * still finds it), or `gone`. Undefined where there is no `/proc` to ask.
 */
export function processPresence(pid: number): "running" | "exited" | "gone" | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return readProc("/proc/self/stat") === undefined ? undefined : "gone";
  return stat[stat.lastIndexOf(")") + 2] === "Z" ? "exited" : "running";
}

/** Options for {@linkcode killSession}. */
export interface KillSessionOptions {
  /**
   * The start time ({@linkcode processStartTicks}) of the session's leader
   * when it was told to end, or undefined when it had already gone. A
   * process now running under the leader's pid that started at another time
   * got the pid again and leads a session of its own: nothing is killed.
   */
  leaderStart?: number;
}

/** Sends SIGKILL to every process of session `sid` but this one; returns how many. */
export function killSession(sid: number, options: KillSessionOptions = {}): number {
  return killSessions(new Map([[sid, options]]));
}

/**
 * {@linkcode killSession} for each session of `sessions` (its id → its
 * options), with one look at every process for all of them; returns how
 * many processes were killed.
 */
export function killSessions(sessions: Map<number, KillSessionOptions>): number {
  const ending = [...sessions].filter(([sid, options]) => {
    if (!("leaderStart" in options)) return true;
    // Linux keeps a pid from being used again while any process has it as its session id, so
    // the one way to meet a stranger here is a new process that got the leader's pid.
    const leader = processStartTicks(sid);
    return leader === undefined || leader === options.leaderStart;
  }).map(([sid]) => sid);
  let killed = 0;
  for (const pids of membersOfSessions(ending).values()) {
    for (const pid of pids) {
      if (pid === Deno.pid) continue;
      try {
        Deno.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // Gone already.
      }
    }
  }
  return killed;
}
