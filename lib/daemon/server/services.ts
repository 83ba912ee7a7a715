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

/** The service methods, by name, of every service given. */
export function serviceMethods(services: readonly DaemonService[]): Map<string, Method> {
  const methods = new Map<string, Method>();
  for (const service of services) {
    for (const [name, method] of Object.entries(service.methods ?? {})) {
      if (method) methods.set(name, method as Method);
    }
  }
  return methods;
}

/** The answer to a service method that no service of this skiffd answers. */
export function noService(method: ServiceMethodName): SkiffError {
  return new SkiffError(
    `This skiffd runs without the service that answers '${method}'. Run 'skiff daemon restart'`,
    { exit: "DAEMON" },
  );
}
