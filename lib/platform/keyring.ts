/**
 * A session keyring of its own for a process that runs apart from the
 * login: the kernel's keyctl interface, as pam_keyinit uses it at a login.
 * Programs in its panes (ssh-agent helpers, kinit, agents that keep tokens in
 * the keyring) then keep working after the login that started it is gone.
 *
 * Linux only; elsewhere, and where the kernel refuses, it says why and the
 * caller goes on.
 *
 * @module
 */

const KEYCTL_JOIN_SESSION_KEYRING = 1n;
const KEYCTL_LINK = 8n;
const KEY_SPEC_SESSION_KEYRING = -3n;
const KEY_SPEC_USER_KEYRING = -4n;

/** The keyctl system call's number by CPU (Linux). */
const SYS_KEYCTL: Record<string, bigint> = { x86_64: 250n, aarch64: 219n };

/** What {@linkcode joinNewSessionKeyring} did. */
export type KeyringOutcome =
  | { ok: true; keyring: number }
  | { ok: false; why: string };

/**
 * Gives this process a new session keyring, with the user keyring linked
 * into it, as pam_keyinit does. Never throws.
 */
export function joinNewSessionKeyring(): KeyringOutcome {
  const number = SYS_KEYCTL[Deno.build.arch];
  if (Deno.build.os !== "linux" || number === undefined) {
    return { ok: false, why: `no kernel keyring on ${Deno.build.os}/${Deno.build.arch}` };
  }
  let lib;
  try {
    lib = Deno.dlopen("libc.so.6", {
      syscall: { parameters: ["i64", "i64", "i64", "i64"], result: "i64" },
      __errno_location: { parameters: [], result: "pointer" },
    });
  } catch (error) {
    return { ok: false, why: `cannot load libc: ${(error as Error).message}` };
  }
  const errno = () => {
    const pointer = lib.symbols.__errno_location();
    return pointer ? new Deno.UnsafePointerView(pointer).getInt32() : 0;
  };
  try {
    const keyring = lib.symbols.syscall(number, KEYCTL_JOIN_SESSION_KEYRING, 0n, 0n);
    if (Number(keyring) < 0) {
      return { ok: false, why: `keyctl join session keyring refused (errno ${errno()})` };
    }
    const linked = lib.symbols.syscall(
      number,
      KEYCTL_LINK,
      KEY_SPEC_USER_KEYRING,
      KEY_SPEC_SESSION_KEYRING,
    );
    if (Number(linked) < 0) {
      return { ok: false, why: `keyctl link of the user keyring refused (errno ${errno()})` };
    }
    return { ok: true, keyring: Number(keyring) };
  } finally {
    lib.close();
  }
}

/** The serial of this process's session keyring, from /proc (Linux), or undefined. */
export function sessionKeyringSerial(): number | undefined {
  try {
    const text = Deno.readTextFileSync("/proc/self/keys");
    for (const line of text.split("\n")) {
      const fields = line.trim().split(/\s+/);
      if (fields[7] === "keyring" && fields[8]?.startsWith("_ses")) {
        return parseInt(fields[0], 16);
      }
    }
  } catch {
    // No /proc/self/keys here.
  }
  return undefined;
}
