/**
 * The user id of the process at the other end of a Unix socket.
 *
 * Linux answers through `SO_PEERCRED`, macOS through `getpeereid`. Where
 * neither is available the answer is `undefined`, and the socket's 0600 mode
 * and its 0700 folder are the only guard.
 *
 * @module
 */

type PeerLookup = (fd: number) => number | undefined;

let lookup: PeerLookup | null | undefined;

function linuxLookup(): PeerLookup {
  const lib = Deno.dlopen("libc.so.6", {
    getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  });
  const SOL_SOCKET = 1;
  const SO_PEERCRED = 17;
  return (fd) => {
    const cred = new Int32Array(3);
    const length = new Uint32Array([12]);
    const rc = lib.symbols.getsockopt(
      fd,
      SOL_SOCKET,
      SO_PEERCRED,
      new Uint8Array(cred.buffer),
      new Uint8Array(length.buffer),
    );
    return rc === 0 ? cred[1] : undefined;
  };
}

function darwinLookup(): PeerLookup {
  const lib = Deno.dlopen("libSystem.dylib", {
    getpeereid: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  });
  return (fd) => {
    const uid = new Uint32Array(1);
    const gid = new Uint32Array(1);
    const rc = lib.symbols.getpeereid(
      fd,
      new Uint8Array(uid.buffer),
      new Uint8Array(gid.buffer),
    );
    return rc === 0 ? uid[0] : undefined;
  };
}

/** Returns the peer's user id for a connected Unix socket's file descriptor. */
export function peerUid(fd: number): number | undefined {
  if (lookup === undefined) {
    try {
      lookup = Deno.build.os === "linux"
        ? linuxLookup()
        : Deno.build.os === "darwin"
        ? darwinLookup()
        : null;
    } catch {
      lookup = null;
    }
  }
  return lookup ? lookup(fd) : undefined;
}
