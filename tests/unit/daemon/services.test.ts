import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { type DaemonService, type ServiceHost, Services } from "../../../lib/daemon/server/mod.ts";
import type { MethodContext } from "../../../lib/daemon/server/method_types.ts";
import { SkiffError } from "../../../lib/errors.ts";

/** A service whose start waits until `begin` is resolved, and fails if `fail` is set. */
function slowService(fail?: string) {
  const begin = Promise.withResolvers<void>();
  let ready = false;
  const service: DaemonService = {
    name: "test service",
    async start() {
      await begin.promise;
      if (fail) throw new Error(fail);
      ready = true;
    },
    stop: () => Promise.resolve(),
    methods: {
      // What the hosts service did: a call before its start met state the start sets.
      "app.status": () => {
        if (!ready) throw new TypeError("Cannot read properties of undefined (reading 'socket')");
        return { running: true } as never;
      },
    },
  };
  return { service, begin };
}

const lines: string[] = [];
const HOST: ServiceHost = { socket: "/nowhere", log: (line) => lines.push(line), emit: () => {} };
const CTX = {} as MethodContext;

Deno.test("services: a method called before its service has started waits for the start", async () => {
  const { service, begin } = slowService();
  const services = new Services([service]);
  let answered = false;
  const call = Promise.resolve(services.methods.get("app.status")!({}, CTX)).then(
    (result): unknown => {
      answered = true;
      return result;
    },
  );
  const starting = services.start(HOST);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert(!answered, "no answer before the start");
  begin.resolve();
  await starting;
  assertEquals(await call, { running: true });
  // Once started, a call goes straight through.
  assertEquals(await services.methods.get("app.status")!({}, CTX) as unknown, { running: true });
});

Deno.test("services: a start that fails is told to the calls, as exit DAEMON", async () => {
  const { service, begin } = slowService("port taken");
  const services = new Services([service]);
  const call = Promise.resolve(services.methods.get("app.status")!({}, CTX));
  begin.resolve();
  await services.start(HOST);
  const error = await assertRejects(() => call, SkiffError);
  assertEquals((error as SkiffError).exit, "DAEMON");
  assertEquals(
    error.message,
    "skiffd's test service did not start: port taken. See skiffd's log, then run " +
      "'skiff daemon restart'",
  );
  assert(lines.some((line) => line.startsWith("could not start the test service: Error: port")));
});

Deno.test("services: calls still waiting for a start fail when skiffd stops", async () => {
  const { service } = slowService();
  const services = new Services([service]);
  const call = Promise.resolve(services.methods.get("app.status")!({}, CTX));
  await services.stop(() => {});
  const error = await assertRejects(() => call, /^skiffd is stopping$/);
  assertEquals((error as SkiffError).exit, "DAEMON");
});
