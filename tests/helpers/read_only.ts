/**
 * Making a file read-only for this process, root included: `chmod 0444` does
 * not stop root, so as root the file is made immutable (`chattr +i`, which
 * needs a file system that has the flag, such as ext4).
 *
 * @module
 */

function chattr(flag: "+i" | "-i", path: string): boolean {
  try {
    return new Deno.Command("chattr", { args: [flag, path], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Whether {@linkcode makeReadOnly} works here (as root: whether `chattr +i` does in TMPDIR). */
export function canMakeReadOnly(): boolean {
  if (Deno.uid() !== 0) return true;
  const probe = Deno.makeTempFileSync({ prefix: "skiff-ro-" });
  try {
    const done = chattr("+i", probe);
    if (done) chattr("-i", probe);
    return done;
  } finally {
    Deno.removeSync(probe);
  }
}

/** Makes `path` read-only for this process; the function returned undoes it. */
export function makeReadOnly(path: string): () => void {
  if (Deno.uid() === 0) {
    if (!chattr("+i", path)) throw new Error(`chattr +i ${path} failed`);
    return () => void chattr("-i", path);
  }
  const mode = Deno.statSync(path).mode! & 0o7777;
  Deno.chmodSync(path, 0o444);
  return () => Deno.chmodSync(path, mode);
}
