/**
 * closeOnExec leaves no descriptor above 2 for a started program to inherit,
 * however many are open.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { closeOnExec } from "../../../lib/platform/cloexec.ts";

const isLinux = Deno.build.os === "linux";

Deno.test({
  name: "closeOnExec: descriptors made without close-on-exec are marked, a hundred at once",
  ignore: !isLinux,
  fn() {
    const lib = Deno.dlopen("libc.so.6", {
      dup: { parameters: ["i32"], result: "i32" },
      fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
      close: { parameters: ["i32"], result: "i32" },
    });
    const fds: number[] = [];
    try {
      // dup gives a descriptor without FD_CLOEXEC.
      for (let i = 0; i < 100; i++) fds.push(lib.symbols.dup(2));
      assert(fds.every((fd) => fd > 2 && (lib.symbols.fcntl(fd, 1, 0) & 1) === 0));
      closeOnExec();
      assertEquals(fds.filter((fd) => (lib.symbols.fcntl(fd, 1, 0) & 1) === 0), []);
      // What a started program inherits: only its standard streams.
      const out = new Deno.Command("sh", { args: ["-c", "ls /proc/self/fd"], stdout: "piped" })
        .outputSync();
      const inherited = new TextDecoder().decode(out.stdout).trim().split(/\s+/).map(Number);
      assertEquals(inherited.filter((fd) => fds.includes(fd)), []);
    } finally {
      for (const fd of fds) lib.symbols.close(fd);
      lib.close();
    }
  },
});
