/**
 * Starting skiffd and the watcher apart from the login that asks for them,
 * so that a logout (an SSH session ending) stops neither: on Linux with a
 * systemd user manager, each runs in a transient scope of that manager
 * (`systemd-run --user --scope`), with the desktop variables the manager
 * knows; without one, as a detached process of its own session. Either way
 * the child makes itself a session keyring of its own at start (see
 * `keyring.ts`) when it finds {@linkcode APART_ENV} set.
 *
 * @module
 */

import { closeOnExec } from "./cloexec.ts";
import { joinNewSessionKeyring } from "./keyring.ts";
import { selfCommand, spawnDetached } from "./spawn_self.ts";
import { which } from "./shell.ts";

/** The variables a process started apart takes from the user manager. */
export const MANAGER_ENV = [
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
] as const;

/**
 * Set in the child's environment: `scope:UNIT` when it runs in a systemd
 * scope, `none:WHY` when it does not. The child logs it and makes its own
 * session keyring.
 */
export const APART_ENV = "SKIFF_STARTED_APART";

/**
 * The user manager's environment (`systemctl --user show-environment`), or
 * `undefined` when there is no user manager to ask.
 */
export async function userManagerEnv(): Promise<Record<string, string> | undefined> {
  if (Deno.build.os !== "linux" || !which("systemctl") || !which("systemd-run")) return undefined;
  try {
    const output = await new Deno.Command("systemctl", {
      args: ["--user", "show-environment"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!output.success) return undefined;
    const env: Record<string, string> = {};
    for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
    }
    return env;
  } catch {
    return undefined;
  }
}

/** Options for {@linkcode spawnApart}. */
export interface SpawnApartOptions {
  /** The scope unit's name, without `.scope`, such as `skiffd-skiffd`. */
  unit: string;
  /** Extra environment for the child. */
  env?: Record<string, string>;
}

/** How a child was started. */
export interface ApartChild {
  /** The process id (of `systemd-run` when in a scope: it becomes the program). */
  pid: number;
  /** Resolves with its exit code if it ends while this process still runs. */
  exited: Promise<number>;
  /** Whether it runs in a systemd scope. */
  scope: boolean;
  /** Why not, when it does not. */
  why?: string;
}

/** Starts this program with `args`, apart from the caller's login (see the module notes). */
export async function spawnApart(args: string[], options: SpawnApartOptions): Promise<ApartChild> {
  const manager = await userManagerEnv();
  if (!manager) {
    const why = Deno.build.os === "linux"
      ? "no systemd user manager answers"
      : `no systemd on ${Deno.build.os}`;
    const child = spawnDetached(args, { env: { ...options.env, [APART_ENV]: `none:${why}` } });
    return { ...child, scope: false, why };
  }
  // The desktop variables come from the manager, not from the login that asked.
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    DENO_NO_UPDATE_CHECK: "1",
    ...options.env,
    [APART_ENV]: `scope:${options.unit}`,
  };
  for (const key of MANAGER_ENV) {
    if (manager[key] !== undefined) env[key] = manager[key];
    else delete env[key];
  }
  const self = selfCommand(args);
  closeOnExec();
  const child = new Deno.Command("systemd-run", {
    args: [
      "--user",
      "--scope",
      "--quiet",
      "--collect",
      `--unit=${options.unit}`,
      "--",
      self.program,
      ...self.args,
    ],
    env,
    clearEnv: true,
    detached: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  child.unref();
  return {
    pid: child.pid,
    exited: child.status.then((status) => status.code),
    scope: true,
  };
}

/**
 * When this process was started apart (see `lib/platform/apart.ts`), gives it
 * a session keyring of its own and logs the scope and the keyring; else does
 * nothing. Never throws.
 */
export function logApart(log: (line: string) => void): void {
  const apart = Deno.env.get(APART_ENV);
  if (!apart) return;
  const [kind, ...rest] = apart.split(":");
  const detail = rest.join(":");
  log(
    kind === "scope"
      ? `running in systemd scope ${detail}.scope`
      : `running without a scope: ${detail}`,
  );
  const keyring = joinNewSessionKeyring();
  log(
    keyring.ok
      ? `session keyring ${keyring.keyring} of its own, linked to the user keyring`
      : `no session keyring of its own: ${keyring.why}`,
  );
  // Children (panes) must not think they were started apart themselves.
  Deno.env.delete(APART_ENV);
}
