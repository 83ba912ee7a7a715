/**
 * The app as a skiffd service: it serves the page and its WebSockets on
 * 127.0.0.1, on the port kept in the state folder (a random free one the
 * first time), with the token kept beside it, and answers `app.status`.
 *
 * @module
 */

import type { DaemonService, ServiceHost } from "../daemon/mod.ts";
import { SkiffError } from "../errors.ts";
import type { AppStatus } from "../protocol/app.ts";
import {
  type AppAddress,
  appFile,
  isPort,
  newToken,
  randomPort,
  readAppAddress,
  writeAppAddress,
} from "./app_file.ts";
import { Gate } from "./auth.ts";
import { Follow } from "./follow.ts";

/** The only address the app listens on. */
export const APP_HOST = "127.0.0.1";

/** How long a stop waits for the page's connections to close. */
const STOP_WAIT_MS = 2000;

/** How many random ports to try when the kept one is taken. */
const PORT_TRIES = 20;

/** A listening server and the sockets it opened, to close them all. */
interface Listening {
  server: Deno.HttpServer;
  port: number;
}

function listen(port: number, handler: Deno.ServeHandler): Listening {
  const server = Deno.serve({ hostname: APP_HOST, port, onListen: () => {} }, handler);
  return { server, port: server.addr.port };
}

function taken(error: unknown): boolean {
  return error instanceof Deno.errors.AddrInUse || error instanceof Deno.errors.PermissionDenied;
}

class AppService implements DaemonService {
  readonly name = "app";
  #host: ServiceHost | undefined;
  #file = "";
  #address: AppAddress | undefined;
  #listening: Listening | undefined;
  #handler: Deno.ServeHandler | undefined;
  #ready: Promise<void>;
  #readyResolve: () => void = () => {};
  #readyReject: (error: unknown) => void = () => {};
  #sockets = new Set<WebSocket>();
  #follow: Follow | undefined;

  constructor() {
    this.#ready = new Promise((resolve, reject) => {
      this.#readyResolve = resolve;
      this.#readyReject = reject;
    });
    this.#ready.catch(() => {});
  }

  readonly methods = {
    "app.status": async (params: Record<string, unknown>): Promise<AppStatus> => {
      await this.#ready;
      if (params.port !== undefined) {
        if (!isPort(params.port)) {
          throw new SkiffError("Bad request: 'port' must be a whole number from 1 to 65535", {
            exit: "USAGE",
          });
        }
        if (params.port !== this.#listening?.port) await this.#move(params.port);
      }
      return this.#status();
    },
  };

  async start(host: ServiceHost): Promise<void> {
    this.#host = host;
    try {
      this.#file = appFile(host.socket);
      const kept = readAppAddress(this.#file);
      const address = kept ?? { port: randomPort(), token: newToken() };
      const gate = await Gate.create(address.token);
      // The page and xterm.js load only here, after skiffd answers: its start stays as quick.
      const { appRoutes } = await import("./routes.ts");
      this.#follow = new Follow({ log: host.log });
      this.#handler = await appRoutes({
        gate,
        socket: host.socket,
        log: host.log,
        follow: this.#follow,
        opened: (socket) => {
          this.#sockets.add(socket);
          socket.addEventListener("close", () => this.#sockets.delete(socket));
        },
      });
      this.#listening = this.#bindFirstFree(address.port, kept !== undefined);
      this.#address = { port: this.#listening.port, token: address.token };
      writeAppAddress(this.#file, this.#address);
      host.log(`app: serving http://${APP_HOST}:${this.#listening.port}/`);
      this.#readyResolve();
    } catch (error) {
      this.#readyReject(error);
      throw error;
    }
  }

  /** Binds `port`, or when it is taken, random ports of the app's range. */
  #bindFirstFree(port: number, kept: boolean): Listening {
    try {
      return listen(port, this.#handler!);
    } catch (error) {
      if (!taken(error)) throw error;
      if (kept) this.#host?.log(`app: port ${port} is taken; the app moves to another port`);
    }
    for (let i = 0; i < PORT_TRIES; i++) {
      try {
        return listen(randomPort(), this.#handler!);
      } catch (error) {
        if (!taken(error)) throw error;
      }
    }
    return listen(0, this.#handler!);
  }

  async #move(port: number): Promise<void> {
    let next: Listening;
    try {
      next = listen(port, this.#handler!);
    } catch (error) {
      if (!taken(error)) throw error;
      throw new SkiffError(`Port ${port} is taken; the app stays on ${this.#listening?.port}`, {
        exit: "CONFLICT",
      });
    }
    const previous = this.#listening;
    this.#listening = next;
    this.#address = { port: next.port, token: this.#address!.token };
    writeAppAddress(this.#file, this.#address);
    this.#host?.log(`app: moved to http://${APP_HOST}:${next.port}/`);
    await previous?.server.shutdown();
  }

  #status(): AppStatus {
    // An origin has no path: this is the very value a browser's Origin header holds.
    const origin = `http://${APP_HOST}:${this.#listening!.port}`;
    return {
      url: `${origin}/?token=${this.#address!.token}`,
      origin,
      port: this.#listening!.port,
      file: this.#file,
    };
  }

  async stop(): Promise<void> {
    this.#follow?.close();
    for (const socket of this.#sockets) socket.close(1001, "skiffd is stopping");
    // A browser that never answers the close must not hold skiffd's stop.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#listening?.server.shutdown(),
      new Promise((resolve) => timer = setTimeout(resolve, STOP_WAIT_MS)),
    ]);
    clearTimeout(timer);
  }
}

/** The app's service, for `runDaemon({services})`. */
export function appService(): DaemonService {
  return new AppService();
}
