/**
 * Launch recipes for real agent CLIs driven offline against the fake model
 * server (`tests/fixtures/fake_llm_server.ts`).
 *
 * {@linkcode prepareAgent} writes the config files each CLI needs to start
 * straight into its input box (onboarding, trust and auto-update all settled)
 * inside a throwaway HOME, and returns the command line plus a complete
 * environment to run it with (meant for `env -i`). Nothing here reads or writes
 * the real HOME.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import versionTable from "./versions.json" with { type: "json" };

/** Names of the agent CLIs the tests know how to drive. */
export type AgentName = "claude" | "codex" | "gemini" | "opencode" | "qwen" | "grok";

/** One pinned CLI: npm package, version and the name of its bin. */
export interface AgentPin {
  package: string;
  version: string;
  bin: string;
}

/** The pinned versions from `tests/agents/versions.json`. */
export const AGENT_VERSIONS: Readonly<Record<AgentName, AgentPin>> = versionTable;

/** Every known agent, in the order of the version table. */
export const AGENTS: readonly AgentName[] = Object.keys(versionTable) as AgentName[];

/** Options for {@linkcode prepareAgent}. */
export interface PrepareOptions {
  /** Throwaway HOME; config files are written here. Must not be the real HOME. */
  home: string;
  /** Project folder the agent works in; it is marked trusted. */
  workdir: string;
  /** Port of the fake model server on 127.0.0.1. */
  llmPort: number;
  /**
   * Shell command run on agent lifecycle events with the event's JSON on stdin
   * (Claude, Gemini and Qwen hooks; Codex `notify`; an opencode plugin). Grok has
   * no hook mechanism and ignores it.
   */
  hooks?: string;
}

/** How to start a prepared agent. */
export interface AgentLaunch {
  /** Absolute path of the CLI inside the install folder. */
  command: string;
  args: string[];
  /** The complete environment (start from an empty one, as with `env -i`). */
  env: Record<string, string>;
}

/** `--env` arguments of `skiff new` that give a pane a prepared agent's environment. */
export function launchEnvArgs(launch: AgentLaunch): string[] {
  return Object.entries(launch.env).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
}

/** Where and under which name {@linkcode newAgentArgs} starts the agent. */
export interface NewAgentOptions {
  /** The folder it works in (the one it was prepared for). */
  cwd: string;
  /** The pane's name (default: the agent's). */
  name?: string;
}

/** The arguments of `skiff new` that start a prepared `agent` in a pane of its profile. */
export function newAgentArgs(
  agent: AgentName,
  launch: AgentLaunch,
  options: NewAgentOptions,
): string[] {
  const name = options.name === undefined ? [] : ["--name", options.name];
  return [
    "new",
    "--agent",
    agent,
    ...name,
    "--cwd",
    options.cwd,
    ...launchEnvArgs(launch),
    "--",
    ...launch.args,
  ];
}

/** Model id every agent is configured to ask for. */
export const FAKE_MODEL = "fake-model";

/** Dummy API key; Claude approves it by its last 20 characters. */
export const FAKE_API_KEY = "sk-ant-skiff-fake-key-0000000000";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Folder that holds one npm install per agent (`SKIFF_AGENTS_DIR` overrides it). */
export function agentsDir(): string {
  return Deno.env.get("SKIFF_AGENTS_DIR") || join(REPO_ROOT, ".tools", "agents");
}

/** Absolute path of the agent's executable in its install folder. */
export function agentBin(agent: AgentName): string {
  return join(agentsDir(), agent, "node_modules", ".bin", AGENT_VERSIONS[agent].bin);
}

/** True when the agent is installed at its pinned version (see `install.sh`). */
export function agentInstalled(agent: AgentName): boolean {
  const pin = AGENT_VERSIONS[agent];
  try {
    const pkgJson = join(agentsDir(), agent, "node_modules", pin.package, "package.json");
    const version = JSON.parse(Deno.readTextFileSync(pkgJson)).version;
    return version === pin.version && Deno.statSync(agentBin(agent)).isFile;
  } catch {
    return false;
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

async function writeText(path: string, text: string, mode?: number): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text, mode === undefined ? undefined : { mode });
}

function refuseRealHome(home: string): void {
  const real = Deno.env.get("HOME");
  const resolved = Deno.realPathSync(home);
  if ((real && resolved === Deno.realPathSync(real)) || resolved === "/root" || resolved === "/") {
    throw new Error(`prepareAgent: refusing to use ${home} as the agent HOME`);
  }
}

/** PATH for the agent: the folder holding `node`, then the usual system folders. */
function searchPath(): string {
  const dirs: string[] = [];
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (dir && Deno.statSync(join(dir, "node")).isFile) {
        dirs.push(dir);
        break;
      }
    } catch { /* not here */ }
  }
  dirs.push("/usr/local/bin", "/usr/bin", "/bin");
  return [...new Set(dirs)].join(":");
}

function baseEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    PATH: searchPath(),
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    LANG: "C.UTF-8",
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    DISABLE_AUTOUPDATER: "1",
    NO_UPDATE_NOTIFIER: "1",
    npm_config_update_notifier: "false",
  };
}

/**
 * Claude-style hook table: the same command for each listed event. With `named`, each hook
 * is named `skiff EVENT`, as Skiff names its own hooks for Gemini CLI and Qwen Code.
 */
function hookTable(
  command: string,
  events: string[],
  options: { matcher?: string; named?: boolean } = {},
) {
  return Object.fromEntries(events.map((e) => [e, [{
    ...(options.matcher ? { matcher: options.matcher } : {}),
    hooks: [{ type: "command", ...(options.named ? { name: `skiff ${e}` } : {}), command }],
  }]]));
}

type Recipe = (o: PrepareOptions, env: Record<string, string>) => Promise<string[]>;

const claude: Recipe = async ({ home, workdir, llmPort, hooks }, env) => {
  Object.assign(env, {
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${llmPort}`,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  });
  await writeJson(join(home, ".claude.json"), {
    hasCompletedOnboarding: true,
    theme: "dark",
    autoUpdates: false,
    customApiKeyResponses: { approved: [FAKE_API_KEY.slice(-20)], rejected: [] },
    projects: {
      [workdir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true },
    },
  });
  const events = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Notification",
    "Stop",
    "SessionEnd",
  ];
  await writeJson(join(home, ".claude", "settings.json"), {
    ...(hooks ? { hooks: hookTable(hooks, events, { matcher: "*" }) } : {}),
  });
  return ["--permission-mode", "default"];
};

const codex: Recipe = async ({ home, workdir, llmPort, hooks }, env) => {
  const codexHome = join(home, ".codex");
  Object.assign(env, { CODEX_HOME: codexHome, SKIFF_FAKE_API_KEY: "dummy" });
  const lines = [
    `model = "${FAKE_MODEL}"`,
    `model_provider = "skiff_fake"`,
    `check_for_update_on_startup = false`,
  ];
  if (hooks) {
    // notify passes the JSON as the last argument; hand it to the hook on stdin.
    const script = join(home, ".skiff", "codex-notify.sh");
    await writeText(script, `#!/bin/sh\nprintf '%s\\n' "$1" | ${hooks}\n`, 0o755);
    lines.push(`notify = [${JSON.stringify(script)}]`);
  }
  lines.push(
    "",
    "[model_providers.skiff_fake]",
    `name = "Skiff fake model"`,
    `base_url = "http://127.0.0.1:${llmPort}/v1"`,
    `env_key = "SKIFF_FAKE_API_KEY"`,
    `wire_api = "responses"`,
    "",
    `[projects.${JSON.stringify(workdir)}]`,
    `trust_level = "trusted"`,
    "",
  );
  await writeText(join(codexHome, "config.toml"), lines.join("\n"));
  return ["--no-daemon", "-s", "read-only", "-a", "on-request"];
};

const gemini: Recipe = async ({ home, workdir, llmPort, hooks }, env) => {
  Object.assign(env, {
    GEMINI_API_KEY: "dummy",
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${llmPort}`,
  });
  const events = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "Notification"];
  await writeJson(join(home, ".gemini", "settings.json"), {
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      // Its start removes every file of the folder's chats that holds no prompt yet, another
      // running Gemini CLI's new one too; that one's next write makes the file again without the
      // line naming its session, and it cannot be resumed (seen in the resume test, two panes
      // started at once). The cleanup is Gemini CLI's, not Skiff's: the tests keep it off.
      sessionRetention: { enabled: false },
    },
    privacy: { usageStatisticsEnabled: false },
    security: { auth: { selectedType: "gemini-api-key" } },
    ...(hooks
      ? { hooks: hookTable(hooks, [...events, "AfterAgent", "SessionEnd"], { named: true }) }
      : {}),
  });
  await writeJson(join(home, ".gemini", "trustedFolders.json"), { [workdir]: "TRUST_FOLDER" });
  return [];
};

/** opencode bus events forwarded to the hook command. */
const OPENCODE_HOOK_EVENTS = [
  "session.created",
  "session.status",
  "session.idle",
  "session.error",
  "permission.asked",
  "permission.replied",
];

/**
 * Gives opencode's config folder the plugin kit that tests/agents/install.sh
 * installed: opencode otherwise installs it with npm at each start that finds
 * a plugin (Skiff's hooks, or the tests' own) and no kit, which takes 40-50 s
 * and minutes under load. Hard links: npm replaces files, it does not write
 * into them.
 */
async function seedOpencodeKit(dir: string): Promise<void> {
  const kit = join(agentsDir(), "opencode-config");
  if (!await Deno.stat(join(kit, "node_modules")).then(() => true, () => false)) return;
  await Deno.mkdir(dir, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) {
    await Deno.copyFile(join(kit, file), join(dir, file));
  }
  const copy = await new Deno.Command("cp", {
    args: ["-al", join(kit, "node_modules"), join(dir, "node_modules")],
    stderr: "piped",
  }).output();
  if (!copy.success) throw new Error(`cp -al: ${new TextDecoder().decode(copy.stderr)}`);
}

const opencode: Recipe = async ({ home, llmPort, hooks }, env) => {
  Object.assign(env, {
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
  });
  const dir = join(home, ".config", "opencode");
  await seedOpencodeKit(dir);
  await writeJson(join(dir, "opencode.json"), {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `skiff/${FAKE_MODEL}`,
    permission: { bash: "ask", edit: "ask" },
    provider: {
      skiff: {
        npm: "@ai-sdk/openai-compatible",
        name: "Skiff fake",
        options: { baseURL: `http://127.0.0.1:${llmPort}/v1`, apiKey: "dummy" },
        models: { [FAKE_MODEL]: { name: "Fake Model", tool_call: true } },
      },
    },
  });
  if (hooks) {
    // Forward lifecycle events only (not per-token ones), one hook process at a time.
    const plugin = [
      `import { spawn } from "node:child_process";`,
      `const COMMAND = ${JSON.stringify(hooks)};`,
      `const WANTED = new Set(${JSON.stringify(OPENCODE_HOOK_EVENTS)});`,
      `let queue = Promise.resolve();`,
      `function run(payload) {`,
      `  return new Promise((done) => {`,
      `    const child = spawn("/bin/sh", ["-c", COMMAND], { stdio: ["pipe", "ignore", "ignore"] });`,
      `    child.on("error", done);`,
      `    child.on("exit", done);`,
      `    child.stdin.end(payload);`,
      `  });`,
      `}`,
      `export const SkiffHooks = async () => ({`,
      `  event: async ({ event }) => {`,
      `    if (!WANTED.has(event.type)) return;`,
      `    const payload = JSON.stringify({ hook_event_name: event.type, ...event.properties });`,
      `    queue = queue.then(() => run(payload));`,
      `  },`,
      `});`,
      ``,
    ];
    await writeText(join(dir, "plugin", "skiff-hooks.js"), plugin.join("\n"));
  }
  return [];
};

const qwen: Recipe = async ({ home, llmPort, hooks }, env) => {
  Object.assign(env, {
    OPENAI_API_KEY: "dummy",
    OPENAI_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    OPENAI_MODEL: FAKE_MODEL,
  });
  const events = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "Notification",
    "Stop",
    "SessionEnd",
  ];
  await writeJson(join(home, ".qwen", "settings.json"), {
    general: { disableAutoUpdate: true, enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    security: { auth: { selectedType: "openai" } },
    model: { name: FAKE_MODEL },
    ...(hooks ? { hooks: hookTable(hooks, events, { matcher: "*" }) } : {}),
  });
  return [];
};

// deno-lint-ignore require-await
const grok: Recipe = async ({ llmPort }, env) => {
  Object.assign(env, {
    GROK_API_KEY: "dummy",
    GROK_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    GROK_MODEL: FAKE_MODEL,
  });
  return [];
};

const RECIPES: Record<AgentName, Recipe> = { claude, codex, gemini, opencode, qwen, grok };

/**
 * Writes the agent's offline config under `options.home` and returns how to
 * start it. Run the command in `options.workdir` with exactly `env`.
 */
export async function prepareAgent(
  agent: AgentName,
  options: PrepareOptions,
): Promise<AgentLaunch> {
  const recipe = RECIPES[agent];
  if (!recipe) throw new Error(`prepareAgent: unknown agent ${agent}`);
  await Deno.mkdir(options.home, { recursive: true });
  await Deno.mkdir(options.workdir, { recursive: true });
  refuseRealHome(options.home);
  // Trust entries are keyed by the real path, as the CLIs see their cwd.
  const resolved = { ...options, workdir: await Deno.realPath(options.workdir) };
  const env = baseEnv(options.home);
  // The agent's own folder first, so its plain name (`claude`) starts it, as on a user's PATH.
  env.PATH = `${dirname(agentBin(agent))}:${env.PATH}`;
  const args = await recipe(resolved, env);
  return { command: agentBin(agent), args, env };
}

/**
 * A temporary folder Gemini CLI reads a system settings file from (it and
 * every folder above it belong to root and no one else may write them), for
 * a state folder where Skiff's hooks for Gemini can be wired; undefined when
 * this process cannot make one (not root). The caller removes it.
 */
export async function rootOwnedTempDir(): Promise<string | undefined> {
  if (Deno.uid() !== 0) return undefined;
  try {
    return await Deno.makeTempDir({ dir: "/run", prefix: "skiff-real-" });
  } catch {
    return undefined;
  }
}
