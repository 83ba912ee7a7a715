/**
 * Running `skiff` itself on a host, over the link's SSH connection (never a
 * new one): for the few commands whose work happens in files on the host
 * rather than in its skiffd (`skiff diff HOST:PANE` runs git there).
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { loadConfig } from "../config/config.ts";
import { socketPath } from "../config/paths.ts";
import { hostConfig } from "./config.ts";
import { linkFiles } from "./paths.ts";
import { linkError, linkTo } from "./resolve.ts";
import { execArgs, remoteSkiffLine, sshWhy } from "./ssh.ts";

/** What `skiff ARGS…` on the host gave. */
export interface HostRun {
  /** Its exit code. */
  code: number;
  /** Its standard output, as bytes. */
  stdout: Uint8Array;
  /** Its standard error, as text. */
  stderr: string;
}

/**
 * Runs `skiff ARGS…` on `host` through its link (made first when there is
 * none). Throws exit `UNREACHABLE` when the link is not up or the run takes
 * longer than `timeoutMs`.
 */
export async function runOnHost(
  host: string,
  args: string[],
  timeoutMs = 300_000,
): Promise<HostRun> {
  const { link } = await linkTo(host);
  if (link.state !== "up") throw linkError(link);
  const config = hostConfig(loadConfig(), host);
  const control = linkFiles(socketPath(), host).control;
  const child = new Deno.Command("ssh", {
    args: execArgs(config, control, remoteSkiffLine(config, args)),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }, timeoutMs);
  try {
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    if (out.signal === "SIGKILL") {
      throw new SkiffError(
        `'skiff ${args[0]}' on ${host} did not end within ${timeoutMs / 1000} s`,
        {
          exit: "UNREACHABLE",
          details: { host },
        },
      );
    }
    if (out.code === 255) {
      throw new SkiffError(`Host ${host} is unreachable: ${sshWhy(stderr, "ssh failed")}`, {
        exit: "UNREACHABLE",
        details: { host },
      });
    }
    return { code: out.code, stdout: out.stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}
