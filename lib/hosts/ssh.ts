/**
 * The `ssh` command lines of a link, and running them. Every line keeps the
 * person's own `~/.ssh/config` (Host aliases, keys, jump hosts, proxies)
 * and their `ssh_options` first, so theirs win; Skiff adds only what a
 * daemon needs: no prompts (BatchMode), a bound on connecting, keepalives
 * that notice a dead network, and its own control socket so nothing is
 * shared with the person's ControlMaster.
 *
 * @module
 */

import { splitCommand } from "../config/tables.ts";
import { shellQuote } from "../platform/shell.ts";
import type { HostConfig } from "./config.ts";

/** Seconds ssh may take to connect, including the SSH handshake. */
export const CONNECT_TIMEOUT_S = 10;
/** Keepalives: a link that misses this many answers, this many seconds apart, is dead. */
export const ALIVE_INTERVAL_S = 5;
/** See {@linkcode ALIVE_INTERVAL_S}. */
export const ALIVE_COUNT = 3;

/** Options every ssh of a link takes, after the person's own. */
function common(host: HostConfig): string[] {
  return [
    ...host.sshOptions,
    "-o",
    "BatchMode=yes",
    "-o",
    `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
    "-o",
    `ServerAliveInterval=${ALIVE_INTERVAL_S}`,
    "-o",
    `ServerAliveCountMax=${ALIVE_COUNT}`,
  ];
}

/**
 * The master: one SSH connection that holds the link, with no command
 * (`-N`), in the foreground so skiffd knows when it ends. Forwards from the
 * person's config are cleared (one of theirs that fails would end ours).
 */
export function masterArgs(host: HostConfig, control: string): string[] {
  return [
    ...common(host),
    "-M",
    "-S",
    control,
    "-N",
    "-o",
    "ControlPersist=no",
    "-o",
    "ExitOnForwardFailure=yes",
    "-o",
    "ClearAllForwardings=yes",
    "-o",
    "RequestTTY=no",
    "-o",
    "PermitLocalCommand=no",
    "--",
    host.ssh,
  ];
}

/** A command run on the host over the master (never a new connection: ControlMaster=no). */
export function execArgs(host: HostConfig, control: string, command: string): string[] {
  return [
    ...common(host),
    "-S",
    control,
    "-o",
    "ControlMaster=no",
    "-T",
    "--",
    host.ssh,
    command,
  ];
}

/** A control request to the master: `check`, `exit`, or `forward`/`cancel` with `-L`. */
export function controlArgs(
  host: HostConfig,
  control: string,
  request: string,
  forward?: { local: string; remote: string },
): string[] {
  return [
    ...host.sshOptions,
    "-S",
    control,
    "-O",
    request,
    ...(forward ? ["-L", `${forward.local}:${forward.remote}`] : []),
    "--",
    host.ssh,
  ];
}

/** Quotes a word of the remote program for the host's shell; a leading `~/` stays the home. */
function remoteWord(word: string): string {
  if (word === "~") return '"$HOME"';
  if (word.startsWith("~/")) return `"$HOME"/${shellQuote(word.slice(2))}`;
  return shellQuote(word);
}

/**
 * The line the host's shell runs for `skiff ARGS…`: the host's `skiff`
 * (its words, each quoted), with `SKIFF_SOCKET` set when the host's socket
 * is configured.
 */
export function remoteSkiffLine(host: HostConfig, args: string[]): string {
  const words = splitCommand(host.skiff).map(remoteWord);
  const env = host.socket === null ? [] : [`SKIFF_SOCKET=${shellQuote(host.socket)}`];
  return ["exec", "env", ...env, ...words, ...args.map(shellQuote)].join(" ");
}

/** What a finished ssh run gave. */
export interface SshResult {
  /** Its exit code; null when it was killed for taking too long. */
  code: number | null;
  /** Its standard output. */
  stdout: string;
  /** Its standard error. */
  stderr: string;
}

/** Runs `ssh args…`, killing it after `timeoutMs`. */
export async function runSsh(args: string[], timeoutMs: number): Promise<SshResult> {
  const child = new Deno.Command("ssh", {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }, timeoutMs);
  try {
    const out = await child.output();
    const decoder = new TextDecoder();
    return {
      code: timedOut ? null : out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one line that says why ssh failed: its last line on stderr that is not
 * a warning, with `ssh: ` in front when ssh did not say it.
 */
export function sshWhy(stderr: string, fallback: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) =>
    l !== "" && !/^Warning: Permanently added/.test(l) && !/^\*\*/.test(l)
  );
  const last = lines.at(-1);
  if (!last) return fallback;
  return last.startsWith("ssh:") ? last : `ssh: ${last}`;
}
