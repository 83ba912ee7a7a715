/**
 * The OpenSSH ControlMaster of one link: run in the foreground so skiffd
 * owns it, its pid written beside the link's sockets (so a skiffd killed
 * meanwhile leaves nothing the next cannot end), its last words kept to say
 * why it failed, and ended politely (`-O exit`) before it is signalled.
 *
 * @module
 */

import { CONTROL_TIMEOUT_MS, type LinkEnds, unreachable, within } from "./link_steps.ts";
import { removeFile } from "./paths.ts";
import { CONNECT_TIMEOUT_S, controlArgs, masterArgs, runSsh, sshWhy } from "./ssh.ts";

/** How long the master may take to log in before the attempt counts as failed. */
const MASTER_TIMEOUT_MS = (CONNECT_TIMEOUT_S + 20) * 1000;

/** Options for {@linkcode SshMaster}. */
export interface SshMasterOptions {
  /** Told once when the ssh ends, with its exit code. */
  ended: (code: number) => void;
}

/** One running `ssh -M` for a link; see the module's documentation. */
export class SshMaster {
  readonly #link: LinkEnds;
  readonly #child: Deno.ChildProcess;
  readonly #ended: Promise<Deno.CommandStatus>;
  #running = true;
  #stderr = "";

  /** Starts the master for `link`; wait for {@linkcode SshMaster.loggedIn}. */
  constructor(link: LinkEnds, options: SshMasterOptions) {
    this.#link = link;
    const child = new Deno.Command("ssh", {
      args: masterArgs(link.host, link.files.control),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        this.#stderr = (this.#stderr + decoder.decode(chunk)).slice(-4000);
      }
    })().catch(() => {});
    this.#ended = child.status.then((status) => {
      this.#running = false;
      removeFile(link.files.pid);
      return status;
    });
    this.#ended.then((status) => options.ended(status.code)).catch(() => {});
    try {
      Deno.writeTextFileSync(link.files.pid, `${child.pid}\n`);
    } catch (error) {
      // No pid file, no way to end it after a crash: it must not outlive this failed try.
      child.kill("SIGTERM");
      throw error;
    }
  }

  /** Whether the ssh still runs. */
  get running(): boolean {
    return this.#running;
  }

  /** Why the ssh failed, from its last words, else `fallback`. */
  why(fallback: string): string {
    return sshWhy(this.#stderr, fallback);
  }

  /** Resolves once ssh has logged in (its control socket is there); throws when it ends first. */
  async loggedIn(): Promise<void> {
    const { host, files } = this.#link;
    const deadline = Date.now() + MASTER_TIMEOUT_MS;
    for (;;) {
      if (!this.#running) {
        // Let its last words arrive.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw unreachable(this.why(`ssh to ${host.ssh} ended at once`));
      }
      try {
        if (Deno.statSync(files.control).isSocket) return;
      } catch {
        // Not yet: ssh makes it once it has logged in.
      }
      if (Date.now() > deadline) {
        throw unreachable(`ssh to ${host.ssh} did not log in within ${MASTER_TIMEOUT_MS / 1000} s`);
      }
      await Promise.race([this.#ended, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  /** Asks the master to exit, then signals it if it does not. */
  async stop(): Promise<void> {
    if (this.#running) {
      const master = this.#child;
      await runSsh(
        controlArgs(this.#link.host, this.#link.files.control, "exit"),
        CONTROL_TIMEOUT_MS,
      ).catch(() => {});
      try {
        master.kill("SIGTERM");
      } catch {
        // Ended already.
      }
      await within(master.status, 2000, () => new Error("ssh did not end")).catch(() => {
        try {
          master.kill("SIGKILL");
        } catch {
          // Ended meanwhile.
        }
      });
    }
    this.#running = false;
  }
}
