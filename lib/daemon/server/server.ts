/**
 * skiffd's socket: accepts connections, checks the peer, reads request lines,
 * and answers them through the method table.
 *
 * @module
 */

import net from "node:net";
import { codeOf, SkiffError } from "../../errors.ts";
import { peerUid } from "../../platform/peercred.ts";
import { ProtocolError, type Request, type Response } from "../../protocol/messages.ts";
import { PROTOCOL_VERSION, VERSION } from "../../version.ts";
import { Connection } from "./connection.ts";
import type { Method, MethodContext } from "./method_types.ts";
import { METHODS } from "./methods.ts";
import { noService } from "./services.ts";
import type { ServiceMethodName } from "../../protocol/app.ts";
import type { UpgradeOutcome } from "../../protocol/daemon.ts";

/** The service methods the protocol knows, so that one nobody serves gets a clear answer. */
const SERVICE_METHODS = new Set<string>(["app.status"] satisfies ServiceMethodName[]);

/** Answers a service method that no service of this skiffd serves. */
function unserved(name: string): Method {
  return () => {
    throw noService(name as ServiceMethodName);
  };
}

/**
 * The refusal of a client that speaks another protocol: both sides'
 * versions, and what to run (the client words its own line from the details).
 */
function protocolRefusal(protocol: unknown): NonNullable<Response["error"]> {
  const theirs = typeof protocol === "number" ? protocol : 0;
  const advice = theirs > PROTOCOL_VERSION
    ? "Run 'skiff daemon upgrade' with the newer skiff to move skiffd to it"
    : "Use the newer skiff, or run 'skiff daemon upgrade' with this one to move skiffd to it";
  return {
    code: ProtocolError.PROTOCOL_MISMATCH,
    message: `skiffd speaks protocol ${PROTOCOL_VERSION} (Skiff ${VERSION}) but this client ` +
      `speaks ${protocol}. ${advice}`,
    details: { protocol: PROTOCOL_VERSION, version: VERSION },
  };
}

/** How long attached terminals get to leave before an upgrade hands the panes over. */
const ATTACHED_AWAY_MS = 1000;

/** Options for {@linkcode Server}. */
export interface ServerOptions {
  /** Builds the context for a method call on `connection`. */
  context: (connection: Connection) => Omit<MethodContext, "afterReply">;
  /** Writes a line to the daemon's log. */
  log: (line: string) => void;
  /** The service methods, by name, of the services skiffd runs. */
  serviceMethods?: Map<string, Method>;
  /** How the last upgrade went, for the hello of `skiff daemon upgrade`. */
  lastUpgrade?: () => UpgradeOutcome | null;
  /** Whether a request may pass the gate (see {@linkcode Server.gate}) before it opens. */
  passesGate?: (request: Request) => boolean;
  /**
   * Whether skiffd is stopping: its hello says so, and a client that wants
   * a skiffd to serve it waits for the next one instead.
   */
  stopping?: () => boolean;
}

/**
 * What a client of another protocol may call after an upgrade hello: the
 * subset every skiffd keeps, so that `skiff daemon upgrade` works across a
 * change of protocol. Its params and results never change.
 */
const UPGRADE_METHODS = new Set<string>(["daemon.upgrade"]);

function isRequest(value: unknown): value is Request {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  return (typeof r.id === "number" || typeof r.id === "string") && typeof r.method === "string" &&
    (r.params === undefined ||
      typeof r.params === "object" && r.params !== null && !Array.isArray(r.params));
}

/** The listening socket and its connections. */
export class Server {
  #server: net.Server;
  readonly #connections = new Set<Connection>();
  readonly #options: ServerOptions;
  #nextId = 1;
  /** Requests under way, by a number of their own: their method. */
  readonly #inflight = new Map<number, string>();
  #nextRequest = 1;
  #holding = false;
  #gate: PromiseWithResolvers<void> | undefined;

  /** Makes a server; call {@linkcode Server.listen}. */
  constructor(options: ServerOptions) {
    this.#options = options;
    this.#server = net.createServer((socket) => this.#accept(socket));
  }

  /**
   * Listens on a socket already listening at descriptor `fd`, inherited
   * from the skiffd this one replaced in place: connections made meanwhile
   * waited in its queue and are served now.
   */
  listenFd(fd: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen({ fd }, () => resolve());
    });
  }

  /** The listening socket's descriptor, to hand to a new program. */
  get listenerFd(): number | undefined {
    const fd = (this.#server as unknown as { _handle?: { fd?: number } })._handle?.fd;
    return typeof fd === "number" && fd >= 0 ? fd : undefined;
  }

  /** Listens on `path`, creating the socket with mode 0600. */
  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const previous = Deno.umask(0o177);
      this.#server.once("error", (error) => {
        Deno.umask(previous);
        reject(error);
      });
      this.#server.listen(path, () => {
        Deno.umask(previous);
        Deno.chmodSync(path, 0o600);
        resolve();
      });
    });
  }

  /** How many clients are connected. */
  get clients(): number {
    return this.#connections.size;
  }

  #accept(socket: net.Socket): void {
    const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
    const uid = typeof fd === "number" && fd >= 0 ? peerUid(fd) : undefined;
    if (uid !== undefined && uid !== Deno.uid()) {
      this.#options.log(`refused a connection from uid ${uid}`);
      socket.end(
        JSON.stringify({
          id: null,
          error: { code: "forbidden", message: "This skiffd belongs to another user" },
        }) + "\n",
      );
      return;
    }
    const connection = new Connection(this.#nextId++, socket, (c, text) => this.#onLine(c, text));
    this.#connections.add(connection);
    connection.onClose(() => this.#connections.delete(connection));
  }

  /** Answers one request line; returns `false` when the connection must wait for the answer. */
  #onLine(connection: Connection, text: string): boolean {
    if (text.trim() === "") return true;
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      connection.send({
        id: null,
        error: { code: ProtocolError.BAD_FRAME, message: "Request is not valid JSON" },
      });
      return true;
    }
    if (!isRequest(request)) {
      const id = (request as { id?: unknown })?.id;
      connection.send({
        id: typeof id === "number" || typeof id === "string" ? id : null,
        error: {
          code: ProtocolError.BAD_REQUEST,
          message: "Request needs an id, a method name, and params as an object",
        },
      });
      return true;
    }
    if (this.#holding && request.method !== "hello") {
      // The panes are being handed to a new program: nothing may start now.
      connection.send({
        id: request.id,
        error: {
          code: "daemon",
          message: "skiffd is being upgraded; run it again in a moment",
        },
      });
      return true;
    }
    connection.requestStarted();
    const key = this.#nextRequest++;
    this.#inflight.set(key, request.method);
    // What follows an attach may be frames already: read nothing more until it is answered.
    const switches = request.method === "attach";
    this.#dispatch(connection, request).catch((error) => {
      this.#options.log(`internal error in ${request.method}: ${error?.stack ?? error}`);
    }).finally(() => {
      this.#inflight.delete(key);
      connection.requestFinished();
      if (switches) connection.resumeInput();
    });
    return !switches;
  }

  /**
   * Refuses every new request from now on (an upgrade is handing the panes
   * over), and resolves once the requests under way have been answered,
   * except those of methods in `besides` (waits that may last, the upgrade's
   * own request); `false` when some are still under way after `timeoutMs`.
   */
  async hold(besides: ReadonlySet<string>, timeoutMs: number): Promise<boolean> {
    this.#holding = true;
    // Attached terminals leave first, so their keys go in before the panes are handed over.
    const leaving = [...this.#connections].filter((c) => c.sendAway("upgrade"));
    const away = Date.now() + ATTACHED_AWAY_MS;
    while (leaving.some((c) => !c.closed) && Date.now() < away) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const deadline = Date.now() + timeoutMs;
    const busy = () => [...this.#inflight.values()].some((method) => !besides.has(method));
    while (busy()) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  /**
   * Keeps requests waiting (hello is still answered) until
   * {@linkcode Server.open}: a new skiffd taking over in place has not built
   * every pane yet.
   */
  gate(): void {
    this.#gate ??= Promise.withResolvers<void>();
  }

  /** Lets requests that waited at the gate through, in order. */
  open(): void {
    this.#gate?.resolve();
    this.#gate = undefined;
  }

  /** Serves requests again after {@linkcode Server.hold}. */
  release(): void {
    this.#holding = false;
  }

  /** The methods of the requests under way. */
  get requestsUnderWay(): string[] {
    return [...this.#inflight.values()];
  }

  async #dispatch(connection: Connection, request: Request): Promise<void> {
    const params = request.params ?? {};
    if (request.method === "hello") {
      const protocol = params.protocol;
      // `skiff daemon upgrade` greets with `upgrade`: a client of another
      // protocol may still upgrade, and nothing else (see UPGRADE_METHODS).
      const upgrade = params.upgrade === true;
      if (protocol !== PROTOCOL_VERSION && !upgrade) {
        connection.send({ id: request.id, error: protocolRefusal(protocol) });
        return;
      }
      connection.greeted = true;
      connection.upgradeOnly = protocol !== PROTOCOL_VERSION;
      connection.send({
        id: request.id,
        result: {
          protocol: PROTOCOL_VERSION,
          version: VERSION,
          pid: Deno.pid,
          ...(this.#options.stopping?.() ? { stopping: true } : {}),
          ...(upgrade ? { upgrade: this.#options.lastUpgrade?.() ?? null } : {}),
        },
      });
      return;
    }
    if (!connection.greeted) {
      connection.send({
        id: request.id,
        error: { code: ProtocolError.HELLO_REQUIRED, message: "Send hello first" },
      });
      return;
    }
    if (this.#gate && !this.#options.passesGate?.(request)) await this.#gate.promise;
    if (connection.upgradeOnly && !UPGRADE_METHODS.has(request.method)) {
      connection.send({ id: request.id, error: protocolRefusal(params.protocol) });
      return;
    }
    const method = Object.hasOwn(METHODS, request.method)
      ? (METHODS as Record<string, Method>)[request.method]
      : this.#options.serviceMethods?.get(request.method) ??
        (SERVICE_METHODS.has(request.method) ? unserved(request.method) : undefined);
    if (!method) {
      connection.send({
        id: request.id,
        error: {
          code: ProtocolError.UNKNOWN_METHOD,
          message: `Unknown method '${request.method}'`,
        },
      });
      return;
    }
    const after: (() => void)[] = [];
    let response: Response;
    try {
      const result = await method(params, {
        ...this.#options.context(connection),
        afterReply: (action: () => void) => after.push(action),
      });
      response = { id: request.id, result };
    } catch (error) {
      after.length = 0;
      if (error instanceof SkiffError) {
        response = {
          id: request.id,
          error: { code: codeOf(error.exit), message: error.message, details: error.details },
        };
      } else {
        this.#options.log(
          `internal error in ${request.method}: ${(error as Error)?.stack ?? error}`,
        );
        response = {
          id: request.id,
          error: {
            code: "error",
            message: `Internal error: ${(error as Error)?.message ?? error}`,
          },
        };
      }
    }
    connection.send(response);
    for (const action of after) action();
  }

  /**
   * Makes the socket again at `path` after it was removed; connected clients
   * stay connected.
   */
  async relisten(path: string): Promise<void> {
    // Closing the old listener removes whatever is at its path, so it goes first.
    this.#server.close();
    this.#server = net.createServer((socket) => this.#accept(socket));
    await this.listen(path);
  }

  /**
   * Closes every connection but leaves the listener to the exit of the
   * process: closing it would remove the socket at its path, which is
   * another skiffd's now.
   */
  abandon(): void {
    for (const connection of this.#connections) connection.close();
    this.#server.unref();
  }

  /** Ends every connection once its requests are answered (a reload). */
  dropClients(): void {
    for (const connection of this.#connections) connection.endWhenIdle();
  }

  /** Stops listening and closes every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      for (const connection of this.#connections) connection.close();
      this.#server.close(() => resolve());
    });
  }
}
