/**
 * Adding and removing hosts in `projects.toml` (`skiff host add`, `rm`),
 * keeping the person's comments and layout, with every check a host needs.
 *
 * @module
 */

import { SkiffError } from "../errors.ts";
import type { Config } from "../config/config.ts";
import { editConfig } from "../config/edit.ts";
import { removeTable, setTableKeys, type TomlValue } from "../config/toml_edit.ts";
import {
  checkDestination,
  checkHostName,
  type HostConfig,
  hostConfig,
  hostNames,
} from "./config.ts";

/** What {@linkcode addHost} takes besides the name and destination. */
export interface AddHostOptions {
  /** The `skiff` program on the host. */
  skiff?: string;
  /** The socket of the host's skiffd, on the host. */
  socket?: string;
  /** More arguments for `ssh`. */
  sshOptions?: string[];
  /** The config file; by default `projects.toml` in the config folder. */
  file?: string;
}

/** A host added or removed, and the config after the change. */
export interface HostChange {
  /** The host. */
  host: HostConfig;
  /** The config as it is now. */
  config: Config;
}

/**
 * Adds host `name` reached at SSH destination `dest`. Exit `USAGE` for a bad
 * name, destination, socket or program; `CONFLICT` when the name is taken.
 */
export async function addHost(
  name: string,
  dest: string,
  options: AddHostOptions = {},
): Promise<HostChange> {
  checkHostName(name);
  checkDestination(dest, "DEST");
  if (options.socket !== undefined && !options.socket.startsWith("/")) {
    throw new SkiffError(`Option '--socket' needs an absolute path on the host`, {
      exit: "USAGE",
    });
  }
  if (options.skiff !== undefined && options.skiff.trim() === "") {
    throw new SkiffError("Option '--skiff' needs the path or name of skiff on the host", {
      exit: "USAGE",
    });
  }
  const config = await editConfig((text, current) => {
    if (hostNames(current).includes(name)) {
      throw new SkiffError(`A host named '${name}' exists already`, { exit: "CONFLICT" });
    }
    const entries: Record<string, TomlValue> = { ssh: dest };
    if (options.skiff !== undefined) entries.skiff = options.skiff;
    if (options.socket !== undefined) entries.socket = options.socket;
    if (options.sshOptions && options.sshOptions.length > 0) {
      entries.ssh_options = options.sshOptions;
    }
    return setTableKeys(text, ["hosts", name], entries);
  }, options.file);
  return { host: hostConfig(config, name), config };
}

/** Removes host `name`. Exit `NOT_FOUND` when there is none. */
export async function removeHost(
  name: string,
  options: { file?: string } = {},
): Promise<{ name: string; config: Config }> {
  const config = await editConfig((text, current) => {
    if (!hostNames(current).includes(name)) {
      throw new SkiffError(`No host '${name}'. See 'skiff host ls'`, { exit: "NOT_FOUND" });
    }
    return removeTable(text, ["hosts", name]);
  }, options.file);
  if (hostNames(config).includes(name)) {
    throw new SkiffError(`Could not remove '${name}': define it as a [hosts.${name}] table`, {
      exit: "DATA",
    });
  }
  return { name, config };
}
