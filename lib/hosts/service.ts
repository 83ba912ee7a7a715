/**
 * The hosts service: what the local skiffd runs (beside its socket, as it
 * runs the app) to hold the links to other hosts. It answers `hosts.link`
 * and `hosts.list`, keeps a link while anything uses it (a command used it
 * in the last ten minutes, or a connection holds it: an attached terminal,
 * the watcher), and tells skiffd's subscribers when a host becomes
 * unreachable and when it is back (the `host` event), never once per retry.
 *
 * skiffd does not import this room: the program hands the service to it
 * (`cmd/daemon/run.ts`), so hosts never become branches inside skiffd.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import { loadConfig } from "../config/config.ts";
import type { EventFields, EventName } from "../protocol/events.ts";
import type {
  HostLink,
  HostLinkParams,
  HostListing,
  HostListParams,
  HostState,
} from "../protocol/hosts.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { type HostConfig, hostConfig, hostNames } from "./config.ts";
import { Link } from "./link.ts";
import { within } from "./link_steps.ts";
import { clearLeftovers, linkFiles, linksDirs } from "./paths.ts";

/** How long a link is kept after its last use when nothing holds it. */
export const IDLE_MS = 10 * 60_000;
/** How often idle links are looked for. */
const IDLE_CHECK_MS = 30_000;
/** How long `hosts.link` waits for a link by default. */
const DEFAULT_LINK_WAIT_MS = 20_000;
/** How long `hosts.list` may take by default. */
const DEFAULT_LIST_WAIT_MS = 800;

/** What skiffd gives the service (the shape of `ServiceHost` in `lib/daemon/server/services.ts`). */
export interface HostsServiceHost {
  /** skiffd's socket: the links' files go beside it. */
  socket: string;
  /** Writes one line to skiffd's log. */
  log(line: string): void;
  /** Sends an event to skiffd's subscribers. */
  emit<N extends EventName>(name: N, fields: EventFields<N>): void;
}

/** What a service method learns of its caller (the shape of skiffd's `MethodContext`). */
export interface CallerContext {
  /** The caller's connection to skiffd. */
  connection: { onClose(callback: () => void): void };
}

function sameHost(a: HostConfig, b: HostConfig): boolean {
  return a.ssh === b.ssh && a.skiff === b.skiff && a.socket === b.socket &&
    a.sshOptions.join("\u0000") === b.sshOptions.join("\u0000");
}

function usage(message: string): SkiffError {
  return new SkiffError(message, { exit: "USAGE" });
}

function optionalMs(params: Record<string, unknown>, name: string, fallback: number): number {
  const value = params[name];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 600_000) {
    throw usage(`Bad request: '${name}' must be a number of ms from 0 to 600000`);
  }
  return value;
}

/** The hosts service; see the module's documentation. */
export class HostsService {
  /** A name for skiffd's log. */
  readonly name = "hosts service";
  #host: HostsServiceHost | undefined;
  readonly #links = new Map<string, Link>();
  /** What each host's subscribers were last told: up, or not. */
  readonly #told = new Map<string, "up" | "down">();
  #idleTimer: ReturnType<typeof setInterval> | undefined;

  /** The service methods skiffd answers through this service. */
  readonly methods = {
    "hosts.link": (params: Record<string, unknown>, ctx: CallerContext): Promise<HostLink> =>
      this.#link(params, ctx),
    "hosts.list": (params: Record<string, unknown>): Promise<{ hosts: HostListing[] }> =>
      this.#list(params),
  };

  /** Starts: cleans up what a killed skiffd left, and looks for idle links now and then. */
  start(host: HostsServiceHost): Promise<void> {
    this.#host = host;
    this.#clearLeftovers();
    this.#idleTimer = setInterval(() => this.#closeIdle(), IDLE_CHECK_MS);
    return Promise.resolve();
  }

  /** Stops: closes every link. */
  async stop(): Promise<void> {
    clearInterval(this.#idleTimer);
    await Promise.all([...this.#links.values()].map((link) => link.close("skiffd stops")));
    this.#links.clear();
  }

  #clearLeftovers(): void {
    for (const dir of linksDirs(this.#host!.socket)) {
      let names: string[] = [];
      try {
        names = [...Deno.readDirSync(dir)].map((e) => e.name);
      } catch {
        continue;
      }
      const hosts = new Set(names.map((n) => n.replace(/\.(ctl|sock|pid)$/, "")));
      for (const name of hosts) clearLeftovers(linkFiles(this.#host!.socket, name));
    }
  }

  #closeIdle(): void {
    const now = Date.now();
    for (const link of this.#links.values()) {
      if (link.state !== "idle" && !this.#inUse(link, now)) {
        void link.close(`unused for ${IDLE_MS / 60_000} minutes`);
      }
    }
  }

  #inUse(link: Link, now = Date.now()): boolean {
    return link.holds > 0 || now - link.lastUse < IDLE_MS;
  }

  #changed(link: Link, previous: HostState): void {
    const host = this.#host;
    if (!host || previous === link.state) return;
    const told = this.#told.get(link.name);
    if (link.state === "up" && told !== "up") {
      this.#told.set(link.name, "up");
      host.emit("host", { host: link.name, state: "up", why: null });
    } else if ((link.state === "unreachable" || link.state === "refused") && told !== "down") {
      this.#told.set(link.name, "down");
      host.emit("host", { host: link.name, state: link.state, why: link.why });
    }
  }

  /** The link to `config`'s host, made (idle) when there is none; a changed config makes it anew. */
  async #linkFor(config: HostConfig): Promise<Link> {
    const existing = this.#links.get(config.name);
    if (existing && sameHost(existing.host, config)) return existing;
    if (existing) await existing.close("its config changed");
    const host = this.#host!;
    const link = new Link(config, {
      files: linkFiles(host.socket, config.name),
      log: host.log,
      changed: (l, previous) => this.#changed(l, previous),
      inUse: (l) => this.#inUse(l),
    });
    this.#links.set(config.name, link);
    return link;
  }

  async #link(params: Record<string, unknown>, ctx: CallerContext): Promise<HostLink> {
    const p = params as Partial<HostLinkParams>;
    if (typeof p.host !== "string" || p.host === "") {
      throw usage("Bad request: 'host' must be a host's name");
    }
    const waitMs = optionalMs(params, "wait_ms", DEFAULT_LINK_WAIT_MS);
    const link = await this.#linkFor(hostConfig(loadConfig(), p.host));
    if (p.hold === true) {
      link.holds++;
      ctx.connection.onClose(() => {
        link.holds--;
        link.lastUse = Date.now();
      });
    }
    link.use();
    if (p.retry === true) link.retryNow();
    await link.settled(waitMs);
    return link.describe();
  }

  async #list(params: Record<string, unknown>): Promise<{ hosts: HostListing[] }> {
    const p = params as Partial<HostListParams>;
    const waitMs = optionalMs(params, "wait_ms", DEFAULT_LIST_WAIT_MS);
    const deadline = Date.now() + waitMs;
    const config = loadConfig();
    const only = Array.isArray(p.hosts) ? new Set(p.hosts.map(String)) : undefined;
    const hosts = await Promise.all(
      hostNames(config).filter((name) => !only || only.has(name)).map(
        async (name): Promise<HostListing> => {
          let link: Link;
          try {
            link = await this.#linkFor(hostConfig(config, name));
          } catch (error) {
            // A broken table is this host's problem only.
            const failure = error instanceof SkiffError ? error : new SkiffError(String(error));
            const raw = config.document.hosts as Record<string, Record<string, unknown>>;
            return {
              host: name,
              ssh: typeof raw?.[name]?.ssh === "string" ? String(raw[name].ssh) : "",
              state: "refused",
              why: failure.message,
              exit: failure.exit,
              since: new Date().toISOString(),
              socket: null,
              remote: null,
              last_up: null,
              next_try: null,
              panes: null,
            };
          }
          if (p.connect === true) {
            link.use();
            // A host that was down may be back: try now, within the time this answer has,
            // rather than tell the last failure as if it were current until the next try.
            if (link.waitsToRetry) link.retryNow();
          }
          await link.settled(deadline - Date.now());
          const listing: HostListing = { ...link.describe(), panes: null };
          if (listing.state === "connecting") {
            listing.why = `no answer yet: connecting over ssh for ${
              ((Date.now() - link.since) / 1000).toFixed(1)
            } s`;
            listing.exit = "UNREACHABLE";
            // Whoever wants the panes now cannot have them: for them the host is unreachable.
            if (p.panes === true) listing.state = "unreachable";
          }
          const rpc = link.rpc;
          if (p.panes === true && rpc) {
            try {
              const left = Math.max(1, deadline - Date.now());
              const { panes } = await within(
                rpc.call("pane.list"),
                left,
                () => new Error(`no answer within ${(waitMs / 1000).toFixed(1)} s`),
              );
              listing.panes = panes as PaneInfo[];
            } catch (error) {
              // Slow or hanging: this host is left out this time, not waited for.
              listing.state = "unreachable";
              listing.why = `its skiffd gave no pane list: ${(error as Error).message}`;
              listing.exit = "UNREACHABLE";
            }
          }
          return listing;
        },
      ),
    );
    return { hosts };
  }
}

/** The hosts service, for skiffd to run (`runDaemon({services: [...]})`). */
export function hostsService(): HostsService {
  return new HostsService();
}
