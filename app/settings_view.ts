/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * Settings › Skiff agent: on/off, agent, name, continue on restore, whether
 * it lands a worker's branch on its own or asks first, and the folder with
 * Copy path and Change…. Every change goes through the same
 * checks as `skiff settings set`; Change… shows the dry run's words first
 * and moves only when asked, as `skiff skipper --move-to` does. A change
 * made elsewhere (another page, `skiff settings set`, an editor) shows as
 * soon as the server says `projects.toml` changed.
 *
 * @module
 */

import type { MoveView, SettingsView } from "../lib/app/api.ts";
import type { Connection } from "./connection.ts";
import { h } from "./dom.ts";

/** The settings screen. */
export class SettingsScreen {
  readonly element: HTMLElement;
  readonly #connection: Connection;
  readonly #changed: () => void;
  readonly #body: HTMLElement;
  readonly #status: HTMLElement;
  /** Change…'s panel: kept across redraws, so a change made elsewhere does not close it. */
  readonly #movePanel: HTMLElement;
  #view: SettingsView | undefined;
  /** The latest read: an answer to an older one that comes later is dropped. */
  #reads = 0;

  /** Makes the screen; `changed` hears of each saved change. */
  constructor(connection: Connection, changed: () => void) {
    this.#connection = connection;
    this.#changed = changed;
    this.#body = h("div", { class: "settings-body" }, "Loading…");
    this.#status = h("p", { class: "status", role: "status", id: "settings-status" });
    this.#movePanel = h("div", { id: "move-panel", class: "move-panel", hidden: true });
    this.element = h(
      "section",
      { class: "screen settings", "aria-labelledby": "settings-title" },
      h(
        "header",
        { class: "screen-head" },
        h("h1", { id: "settings-title" }, "Settings › Skiff agent"),
      ),
      this.#body,
      this.#status,
    );
  }

  /** Reads the settings and shows them. */
  async load(): Promise<void> {
    const read = ++this.#reads;
    let view: SettingsView;
    try {
      view = await this.#connection.call("settings", {});
    } catch (error) {
      if (read !== this.#reads) return;
      // A broken projects.toml: its one line, as the CLI prints it, until it is mended.
      this.#view = undefined;
      this.#body.replaceChildren(
        h(
          "p",
          { class: "problem", role: "alert", id: "settings-problem" },
          (error as Error).message,
        ),
        h("p", { class: "notice" }, "The settings show here again as soon as the file reads."),
      );
      return;
    }
    if (read !== this.#reads) return;
    // Drawn again only when something differs, so the keyboard and a half-typed name stay put.
    if (this.#view && JSON.stringify(view) === JSON.stringify(this.#view)) return;
    this.#render(view);
  }

  async #set(key: string, value: string, problem: HTMLElement): Promise<void> {
    problem.textContent = "";
    problem.hidden = true;
    const read = ++this.#reads;
    try {
      const view = await this.#connection.call("settings.set", { key, value });
      this.#status.textContent = `Saved ${key} = ${value}`;
      if (read === this.#reads) this.#render(view);
      this.#changed();
    } catch (error) {
      problem.textContent = (error as Error).message;
      problem.hidden = false;
      this.#status.textContent = "";
    }
  }

  #defaultNote(key: string): HTMLElement | null {
    return this.#view?.defaults.includes(key as never)
      ? h("span", { class: "default-note" }, "(default)")
      : null;
  }

  #render(view: SettingsView): void {
    const focused = document.activeElement;
    const keep = focused instanceof HTMLElement && this.#body.contains(focused) ? focused.id : "";
    const nameBefore = this.#body.querySelector<HTMLInputElement>("#set-name");
    const typed = nameBefore && nameBefore === focused &&
        nameBefore.value !== this.#view?.settings.name
      ? nameBefore.value
      : null;
    this.#view = view;
    const s = view.settings;
    const problem = (id: string) => h("p", { class: "problem", id, role: "alert", hidden: true });

    const enabledProblem = problem("enabled-problem");
    const enabled = h("input", {
      type: "checkbox",
      role: "switch",
      id: "set-enabled",
      checked: s.enabled,
      "aria-describedby": "enabled-problem",
      onchange: (e: Event) =>
        this.#set("enabled", String((e.target as HTMLInputElement).checked), enabledProblem),
    });

    const agentProblem = problem("agent-problem");
    const agent = h(
      "select",
      {
        id: "set-agent",
        "aria-describedby": "agent-problem",
        onchange: (e: Event) =>
          this.#set("agent", (e.target as HTMLSelectElement).value, agentProblem),
      },
      view.agents.map((a) =>
        h("option", { value: a.id, selected: a.id === s.agent }, `${a.label} (${a.id})`)
      ),
    );

    const nameProblem = problem("name-problem");
    const name = h("input", {
      type: "text",
      id: "set-name",
      value: s.name,
      autocomplete: "off",
      spellcheck: "false",
      "aria-describedby": "name-problem",
    });
    const saveName = (e: Event) => {
      e.preventDefault();
      this.#set("name", name.value, nameProblem);
    };

    const continueProblem = problem("continue-problem");
    const cont = h("input", {
      type: "checkbox",
      id: "set-continue",
      checked: s.continue,
      "aria-describedby": "continue-problem",
      onchange: (e: Event) =>
        this.#set("continue", String((e.target as HTMLInputElement).checked), continueProblem),
    });

    const landProblem = problem("land-problem");
    const land = h(
      "select",
      {
        id: "set-land",
        "aria-describedby": "land-problem",
        onchange: (e: Event) =>
          this.#set("land", (e.target as HTMLSelectElement).value, landProblem),
      },
      h("option", { value: "ask", selected: s.land === "ask" }, "Ask me first"),
      h("option", { value: "auto", selected: s.land === "auto" }, "Land when the checks pass"),
    );

    const folder = view.folder;
    const copied = h("span", { class: "copied", role: "status", id: "copy-status" });
    const folderLine = folder.usable ? null : h(
      "p",
      { class: "problem folder-problem", id: "folder-problem" },
      `This folder cannot be used: ${folder.reason}`,
    );

    this.#body.replaceChildren(
      h(
        "div",
        { class: "field switch" },
        enabled,
        h("label", { for: "set-enabled" }, "Skiff agent on"),
        this.#defaultNote("enabled"),
        enabledProblem,
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "set-agent" }, "Agent"),
        agent,
        this.#defaultNote("agent"),
        agentProblem,
      ),
      h(
        "form",
        { class: "field", onsubmit: saveName },
        h("label", { for: "set-name" }, "Name"),
        name,
        h("button", { type: "submit", id: "save-name" }, "Save name"),
        this.#defaultNote("name"),
        nameProblem,
      ),
      h(
        "div",
        { class: "field switch" },
        cont,
        h("label", { for: "set-continue" }, "Continue its last conversation after a restore"),
        this.#defaultNote("continue"),
        continueProblem,
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "set-land" }, "Landing a worker's branch (skiff land)"),
        land,
        this.#defaultNote("land"),
        landProblem,
      ),
      h(
        "fieldset",
        { class: "folder" },
        h("legend", {}, "Folder"),
        h(
          "div",
          { class: "folder-line" },
          h("output", { id: "folder-path" }, folder.path ?? s.folder),
          h("button", {
            type: "button",
            id: "copy-path",
            onclick: () => this.#copy(folder.path ?? s.folder, copied),
          }, "Copy path"),
          h(
            "button",
            { type: "button", id: "change-folder", onclick: () => this.#openMove() },
            "Change…",
          ),
          copied,
        ),
        folderLine,
        this.#movePanel,
      ),
    );
    if (typed !== null) name.value = typed;
    if (keep) document.getElementById(keep)?.focus();
  }

  async #copy(path: string, status: HTMLElement): Promise<void> {
    try {
      await navigator.clipboard.writeText(path);
    } catch {
      // Without the clipboard API (an insecure origin), copy through a selection.
      const area = h("textarea", { readonly: true, "aria-hidden": "true", class: "offscreen" });
      area.value = path;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    status.textContent = "Copied";
    setTimeout(() => status.textContent = "", 2500);
  }

  #openMove(): void {
    const panel = this.#movePanel;
    const input = h("input", {
      type: "text",
      id: "move-to",
      placeholder: "~/agents/skipper",
      autocomplete: "off",
      spellcheck: "false",
      "aria-describedby": "move-words",
    });
    const words = h("div", { id: "move-words", class: "move-words", "aria-live": "polite" });
    const go = h("button", { type: "button", id: "move-go", disabled: true }, "Move");
    let checked: string | undefined;
    const check = async (e: Event) => {
      e.preventDefault();
      go.disabled = true;
      checked = undefined;
      const path = input.value.trim();
      words.replaceChildren("Checking…");
      try {
        const view = await this.#connection.call("move", { path, dry_run: true });
        words.replaceChildren(h("ul", { class: "words" }, view.lines.map((l) => h("li", {}, l))));
        if (view.outcome.action !== "none") {
          checked = path;
          go.disabled = false;
        }
      } catch (error) {
        words.replaceChildren(
          h("p", { class: "problem", role: "alert" }, (error as Error).message),
        );
      }
    };
    go.addEventListener("click", async () => {
      if (!checked) return;
      go.disabled = true;
      words.replaceChildren("Moving…");
      let view: MoveView;
      try {
        view = await this.#connection.call("move", { path: checked, dry_run: false });
      } catch (error) {
        words.replaceChildren(
          h("p", { class: "problem", role: "alert" }, (error as Error).message),
        );
        return;
      }
      panel.hidden = true;
      await this.load();
      this.#status.textContent = view.lines.join(" ");
      this.#changed();
    });
    input.addEventListener("input", () => {
      go.disabled = true;
      checked = undefined;
    });
    panel.hidden = false;
    panel.replaceChildren(
      h(
        "form",
        { class: "move-form", onsubmit: check },
        h("label", { for: "move-to" }, "New folder"),
        input,
        h("button", { type: "submit", id: "move-check" }, "Check"),
      ),
      words,
      h(
        "div",
        { class: "move-actions" },
        go,
        h("button", { type: "button", onclick: () => panel.hidden = true }, "Cancel"),
      ),
    );
    input.focus();
  }
}
