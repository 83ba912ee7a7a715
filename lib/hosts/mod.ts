/**
 * Hosts: one Skiff agent and one ledger driving agents on several machines
 * over SSH. Every host runs its own skiffd, unchanged; the local skiffd
 * holds one SSH link per host, and `HOST:PANE` names a pane there.
 *
 * ## The link
 *
 * The local skiffd runs the hosts service (`service.ts`), which holds, for
 * each host in use, one OpenSSH ControlMaster (`ssh -M -S CTL -N`, in the
 * foreground, with BatchMode, ConnectTimeout, ServerAliveInterval and
 * CountMax, ExitOnForwardFailure, and the person's `~/.ssh/config` and
 * `ssh_options` still applying) and one stream-local forward on it
 * (`ssh -S CTL -O forward -L LOCAL.sock:REMOTE.sock`) from a private socket
 * beside the local one to the host's skiffd socket. Every connection to
 * LOCAL.sock is a plain skiffd connection on the host, so attach, events
 * and every request work unchanged; OpenSSH multiplexes them over the one
 * connection. The host's skiffd is started on demand through the host's
 * `skiff` (`skiff host remote`, run over the master), which also tells the
 * link the host's versions, socket and agents. The link keeps one
 * connection subscribed to the host's events (pushed, never polled) and
 * makes itself again with backoff when the SSH connection or the host's
 * skiffd goes, logging each step in skiffd's log.
 *
 * ## Why OpenSSH's forwarding, not a bridge of our own
 *
 * The other way was a hidden `skiff` bridge on the host, carrying stdio to
 * the host's socket, with our own multiplexing of several connections over
 * one SSH session. `bench/hosts_transport.ts` measures both over one real
 * SSH connection to a loopback sshd and a second skiffd. On the two-core
 * build machine, under load (medians, samples alternating between the
 * paths):
 *
 * | what                                  | local socket | forward | bridge  |
 * | ------------------------------------- | ------------ | ------- | ------- |
 * | new connection + hello + `pane.list`  | 3.9 ms       | 3.5 ms  | 6.5 ms  |
 * | a round trip on an open connection    | 0.31 ms      | 0.47 ms | 0.99 ms |
 * | an attach's throughput (32 MB)        | the host skiffd's own, ~10 MB/s, for all |
 * | memory on the host                    | -            | none    | 56 MB   |
 *
 * The forward puts no program of ours in the path of the bytes (ssh and
 * sshd carry them), keeps no process of ours running on the host, costs a
 * new connection about one channel open, and needs no framing of our own to
 * get right; the bridge adds two JavaScript hops to every byte and a
 * resident Deno on the host. Its one cost, a control socket to manage, is
 * kept private (0700) and cleaned up, and the master is never reused across
 * skiffd runs, so a stale one cannot hang a link.
 *
 * ## What never crosses the network
 *
 * Skiff opens no TCP listener and exposes no token for hosts: the only
 * network traffic is the person's own SSH connection, and the local end of
 * each forward is a socket (0600) in a private folder (0700) of the local
 * user.
 *
 * - `config.ts`: `[hosts.NAME]` read and checked per host.
 * - `resolve.ts`: `HOST:PANE` and the one resolver every command uses.
 * - `link.ts`, `service.ts`: the links, held by the local skiffd;
 *   `ssh_master.ts` and `link_steps.ts`: the ssh and the steps a link is made of.
 * - `remote.ts`: the host's end (`skiff host remote`) and version skew.
 * - `check.ts`: `skiff host check`.
 * - `link_times.ts`: when a host that is not up was last reached, and is tried next.
 *
 * @module
 */

export {
  checkHostName,
  DEFAULT_REMOTE_SKIFF,
  HOST_KEYS,
  type HostConfig,
  hostConfig,
  hostNames,
} from "./config.ts";
export { HOST_NAME } from "../protocol/hosts.ts";
export { addHost, type AddHostOptions, type HostChange, removeHost } from "./edit.ts";
export {
  connectHost,
  connectPane,
  type HostConnection,
  linkError,
  type LinkOptions,
  linkTo,
  onHost,
  type PaneAddress,
  type PaneConnection,
  paneRefText,
  parsePaneRef,
  type SkiffdAccess,
  type SkiffdLease,
  withPane,
  withSkiffd,
} from "./resolve.ts";
export { checkHost, type CheckOutcome, type HostCheck } from "./check.ts";
export { HostsService, hostsService, IDLE_MS } from "./service.ts";
export { describeThisHost } from "./describe.ts";
export { linkTimes } from "./link_times.ts";
