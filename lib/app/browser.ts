/**
 * Opening the app in the person's browser, where there is one: `xdg-open`
 * on Linux with a display, `open` on macOS when not logged in over SSH.
 * Never an error: without a browser the URL is printed and that is enough.
 *
 * @module
 */

/** Whether a browser was asked to open the page, and if not, why. */
export interface OpenOutcome {
  /** Whether the opener was started and said yes. */
  opened: boolean;
  /** Why not, when not. */
  why: string | null;
}

/** The command that opens a URL here, or why there is none. */
export function opener(
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
  os: string = Deno.build.os,
): { command: string } | { why: string } {
  if (os === "darwin") {
    if (env("SSH_CONNECTION") || env("SSH_TTY")) return { why: "logged in over SSH" };
    return { command: "open" };
  }
  if (os === "linux") {
    if (!env("DISPLAY") && !env("WAYLAND_DISPLAY")) return { why: "no display" };
    return { command: "xdg-open" };
  }
  return { why: `no opener on ${os}` };
}

/** How long to wait for the opener's answer; one that is still busy then has started a browser. */
const OPENER_WAIT_MS = 3000;

/** Asks the system to open `url` in a browser. */
export async function openInBrowser(url: string): Promise<OpenOutcome> {
  const found = opener();
  if ("why" in found) return { opened: false, why: found.why };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(found.command, {
      args: [url],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { opened: false, why: `${found.command} is not installed` };
    }
    return { opened: false, why: (error as Error).message };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const busy = new Promise<"busy">((resolve) =>
    timer = setTimeout(() => resolve("busy"), OPENER_WAIT_MS)
  );
  const status = await Promise.race([child.status, busy]);
  clearTimeout(timer);
  if (status === "busy") {
    child.unref();
    return { opened: true, why: null };
  }
  return status.success
    ? { opened: true, why: null }
    : { opened: false, why: `${found.command} exited ${status.code}` };
}
