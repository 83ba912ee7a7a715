/**
 * Services: parts that skiffd runs beside its socket without knowing what
 * they are. The program hands them to {@linkcode runDaemon} (the app's web
 * server is one), so skiffd never imports the rooms above it. A service
 * talks to skiffd as any client does, through the socket, and may answer
 * the protocol's service methods (`app.status`).
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { ServiceMethodName } from "../../protocol/app.ts";
import type { EventFields, EventName } from "../../protocol/events.ts";
import type { Method, MethodTable } from "./method_types.ts";

/** What skiffd tells a service it starts. */
export interface ServiceHost {
  /** skiffd's socket, to connect to as a client. */
  socket: string;
  /** Writes a line to skiffd's log. */
  log(line: string): void;
  /** Sends an event to skiffd's subscribers (the hosts service tells of its links). */
  emit<N extends EventName>(name: N, fields: EventFields<N>): void;
}

/**
 * The fault switch of services, for tests: `SKIFF_FAULT_SERVICES_LATE=MS`
 * in skiffd's environment starts its services that much later, so that
 * calls surely come before they have started.
 */
export const SERVICES_LATE_ENV = "SKIFF_FAULT_SERVICES_LATE";

/** Something skiffd runs while it runs. */
export interface DaemonService {
  /** A name for the log. */
  readonly name: string;
  /** Starts it, once skiffd listens and has restored its workspace. */
  start(host: ServiceHost): Promise<void>;
  /** Stops it, when skiffd stops. */
  stop(): Promise<void>;
  /** The service methods it answers. */
  readonly methods?: Partial<MethodTable<ServiceMethodName>>;
}

/**
 * The services skiffd runs, and their methods by name. skiffd answers on
 * its socket (and restores its panes) before its services start, so a
 * method can be called before its service has what its start gives it: such
 * a call waits for the start, and fails with exit `DAEMON` when the start
 * failed or skiffd stopped first.
 */
export class Services {
  /** The service methods, by name, each waiting for its service's start. */
  readonly methods = new Map<string, Method>();
  readonly #services: readonly DaemonService[];
  readonly #starts = new Map<DaemonService, PromiseWithResolvers<void>>();

  constructor(services: readonly DaemonService[]) {
    this.#services = services;
    for (const service of services) {
      const started = Promise.withResolvers<void>();
      // Nothing may wait on it yet: a failed start is told to callers, never thrown unheard.
      started.promise.catch(() => {});
      this.#starts.set(service, started);
      for (const [name, method] of Object.entries(service.methods ?? {})) {
        if (!method) continue;
        this.methods.set(name, async (params, ctx) => {
          await started.promise;
          return await (method as Method)(params, ctx);
        });
      }
    }
  }

  /** Starts each service in turn; one that fails is logged, and the rest still start. */
  async start(host: ServiceHost): Promise<void> {
    const late = Number(Deno.env.get(SERVICES_LATE_ENV) ?? 0);
    if (late > 0) {
      host.log(`starting the services ${late} ms late (${SERVICES_LATE_ENV})`);
      await new Promise((resolve) => setTimeout(resolve, late));
    }
    for (const service of this.#services) {
      const started = this.#starts.get(service)!;
      try {
        await service.start(host);
        host.log(`started the ${service.name}`);
        started.resolve();
      } catch (error) {
        host.log(`could not start the ${service.name}: ${(error as Error)?.stack ?? error}`);
        started.reject(
          new SkiffError(
            `skiffd's ${service.name} did not start: ${
              (error as Error)?.message ?? error
            }. See skiffd's log, then run 'skiff daemon restart'`,
            { exit: "DAEMON" },
          ),
        );
      }
    }
  }

  /** Stops every service; calls still waiting for a start fail, as skiffd stops. */
  async stop(log: (line: string) => void): Promise<void> {
    const stopping = new SkiffError("skiffd is stopping", { exit: "DAEMON" });
    for (const started of this.#starts.values()) started.reject(stopping);
    for (const service of this.#services) {
      await service.stop().catch((error) =>
        log(`the ${service.name} did not stop cleanly: ${(error as Error)?.message ?? error}`)
      );
    }
  }
}

/** The answer to a service method that no service of this skiffd answers. */
export function noService(method: ServiceMethodName): SkiffError {
  return new SkiffError(
    `This skiffd runs without the service that answers '${method}'. Run 'skiff daemon restart'`,
    { exit: "DAEMON" },
  );
}
