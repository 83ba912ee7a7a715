/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The ledger: plans with their tasks, each row's state (interrupted and gone
 * too), pane, ref and result path. A result file opens as text. The page
 * reads it again whenever the server says it changed; when it cannot be
 * read, or not changed (read-only, locked), one line says so.
 *
 * @module
 */

import type { LedgerView } from "../lib/app/api.ts";
import type { TaskJson } from "../lib/ledger/json.ts";
import type { Connection } from "./connection.ts";
import { h } from "./dom.ts";

/**
 * A result path as the table shows it: from the ledger's folder when it is
 * inside it (the File line above the table names the folder), else whole.
 */
function shownResult(result: string, ledgerPath: string): string {
  const folder = ledgerPath.slice(0, ledgerPath.lastIndexOf("/") + 1);
  return folder !== "" && result.startsWith(folder) ? result.slice(folder.length) : result;
}

/** How a row shows and what it does. */
interface RowContext {
  /** The ledger file's path. */
  ledgerPath: string;
  /** Opens a row's result file. */
  open: (row: TaskJson) => void;
}

function taskRow(row: TaskJson, nested: boolean, context: RowContext): HTMLElement {
  const pane = row.kind === "plan"
    ? "plan"
    : `${row.pane ?? ""}${row.pane_name ? ` (${row.pane_name})` : ""}`;
  return h(
    "tr",
    { class: `ledger-row kind-${row.kind}${nested ? " nested" : ""}`, "data-uid": row.uid },
    h("td", { class: "uid" }, h("code", {}, row.uid)),
    h("td", {}, h("span", { class: `task-state task-${row.state}` }, row.state)),
    h("td", { class: "pane" }, pane),
    h("td", { class: "task" }, row.task, row.note ? h("div", { class: "note" }, row.note) : null),
    h("td", { class: "ref" }, row.ref ?? ""),
    h(
      "td",
      { class: "result" },
      h(
        "button",
        {
          type: "button",
          class: "link",
          title: `Open ${row.result} as text`,
          onclick: () => context.open(row),
        },
        shownResult(row.result, context.ledgerPath),
      ),
    ),
  );
}

/** The ledger screen. */
export class LedgerScreen {
  readonly element: HTMLElement;
  readonly #connection: Connection;
  readonly #body: HTMLElement;
  readonly #viewer: HTMLElement;
  /** The latest read: an answer to an older one that comes later is dropped. */
  #reads = 0;

  /** Makes the screen; call {@linkcode LedgerScreen.load}. */
  constructor(connection: Connection) {
    this.#connection = connection;
    this.#body = h("div", { class: "ledger-body" }, "Loading…");
    this.#viewer = h("section", { class: "viewer", "aria-label": "Result file", hidden: true });
    this.element = h(
      "section",
      { class: "screen ledger", "aria-labelledby": "ledger-title" },
      h(
        "header",
        { class: "screen-head" },
        h("h1", { id: "ledger-title" }, "Ledger"),
        h("button", { type: "button", onclick: () => this.load() }, "Refresh"),
      ),
      this.#body,
      this.#viewer,
    );
  }

  /** Reads the ledger and shows it. */
  async load(): Promise<void> {
    const read = ++this.#reads;
    let view: LedgerView;
    try {
      view = await this.#connection.call("ledger", {});
    } catch (error) {
      if (read !== this.#reads) return;
      this.#body.replaceChildren(
        h("p", { class: "problem", role: "alert", id: "ledger-problem" }, (error as Error).message),
      );
      return;
    }
    if (read !== this.#reads) return;
    const context = { ledgerPath: view.path, open: (row: TaskJson) => this.#openResult(row) };
    const rows: HTMLElement[] = [];
    for (const row of view.rows) {
      rows.push(taskRow(row, false, context));
      for (const task of row.tasks ?? []) rows.push(taskRow(task, true, context));
    }
    const where = h("p", { class: "ledger-file" }, "File: ", h("code", {}, view.path));
    const unknown = view.liveness === "unknown"
      ? h(
        "p",
        { class: "notice" },
        "skiffd could not tell which panes live: no task shows interrupted or gone.",
      )
      : null;
    const problem = view.problem
      ? h("p", { class: "problem", role: "status", id: "ledger-problem" }, view.problem)
      : "";
    if (rows.length === 0) {
      this.#body.replaceChildren(
        where,
        problem,
        h(
          "p",
          {},
          view.exists
            ? "The ledger is empty."
            : "No ledger yet: the first 'skiff ledger add' makes it.",
        ),
      );
      return;
    }
    this.#body.replaceChildren(
      where,
      problem,
      unknown ?? "",
      h(
        "table",
        { class: "ledger-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["UID", "State", "Pane", "Task", "Ref", "Result"].map((t) =>
              h("th", { scope: "col" }, t)
            ),
          ),
        ),
        h("tbody", {}, rows),
      ),
    );
  }

  async #openResult(row: TaskJson): Promise<void> {
    const response = await fetch(`/result/${row.uid}`);
    const text = await response.text();
    this.#viewer.hidden = false;
    this.#viewer.replaceChildren(
      h(
        "header",
        { class: "screen-head" },
        h("h2", {}, row.result),
        h("a", { href: `/result/${row.uid}`, target: "_blank", rel: "noopener" }, "Open raw"),
        h("button", { type: "button", onclick: () => this.#viewer.hidden = true }, "Close"),
      ),
      response.ok
        ? h("pre", { class: "result-text", tabindex: "0" }, text)
        : h("p", { class: "problem", role: "alert" }, text.trim()),
    );
  }
}
