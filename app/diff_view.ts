/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The Diff view (`#diff/PANE`): a pane's worktree against its base, as
 * `skiff diff` shows it, drawn by diff2html: the changed files with their
 * counts, then each file's lines, drawn as the view reaches them. Its Land
 * button asks first with what a dry run of the landing found (the branch,
 * the base, the commits), as the dashboard's `L` does, and then says what
 * the landing did or why it was refused, in the same words.
 *
 * @module
 */

import type { DiffFile, DiffView } from "../lib/app/api.ts";
import {
  hasWorkToLand,
  landOutcome,
  landQuestion,
  landRefusal,
  nothingToLand,
} from "../lib/overview/landing.ts";
import type { LandRefusalDetails } from "../lib/protocol/land.ts";
import { ApiError, type Connection } from "./connection.ts";
import { h } from "./dom.ts";

type Renderer = typeof import("./diff_render.ts");

let renderer: Promise<Renderer> | undefined;

/** Loads the renderer and its style sheet, once. */
function loadRenderer(): Promise<Renderer> {
  if (!renderer) {
    document.head.append(h("link", { rel: "stylesheet", href: "/vendor/diff2html.css" }));
    // A computed address: the page's bundle leaves the renderer to its own file.
    renderer = import(new URL("/diff.js", location.href).href) as Promise<Renderer>;
  }
  return renderer;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The one line of an error from the server: a landing's refusal in its own words. */
function refusalLine(error: unknown): string {
  if (error instanceof ApiError) {
    return landRefusal(error.message, error.details as Partial<LandRefusalDetails>);
  }
  return (error as Error)?.message ?? String(error);
}

/** A changed file in the list: its path, +added −removed, and whether it is new. */
function fileItem(file: DiffFile, open: (path: string) => void): HTMLElement {
  const name = file.from ? `${file.from} → ${file.path}` : file.path;
  return h(
    "li",
    { "data-path": file.path },
    h(
      "button",
      { type: "button", class: "link", onclick: () => open(file.path) },
      name,
    ),
    file.untracked ? h("span", { class: "diff-new" }, "new") : null,
    file.binary ? h("span", { class: "diff-counts" }, "binary") : h(
      "span",
      { class: "diff-counts" },
      h("span", { class: "diff-added" }, `+${file.added}`),
      " ",
      h("span", { class: "diff-removed" }, `−${file.removed}`),
    ),
  );
}

/** The Diff view of one pane. */
export class DiffScreen {
  readonly element: HTMLElement;
  readonly pane: string;
  readonly #connection: Connection;
  readonly #landed: () => void;
  readonly #meta: HTMLElement;
  readonly #title: HTMLElement;
  readonly #bar: HTMLElement;
  readonly #body: HTMLElement;
  readonly #landButton: HTMLButtonElement;
  #observer: IntersectionObserver | undefined;
  /** The latest read: an answer to an older one that comes later is dropped. */
  #reads = 0;

  /** The Diff view of `pane`; `landed` hears of a landing. Call {@linkcode DiffScreen.load}. */
  constructor(connection: Connection, pane: string, options: { landed: () => void }) {
    this.#connection = connection;
    this.pane = pane;
    this.#landed = options.landed;
    this.#title = h("h1", { id: "diff-title" }, `Diff · ${pane}`);
    this.#meta = h("span", { class: "diff-meta", id: "diff-meta" });
    this.#landButton = h("button", {
      type: "button",
      id: "land-button",
      onclick: () => this.#askToLand(),
    }, "Land…");
    this.#bar = h("div", { class: "land-bar", id: "land-bar", role: "status", hidden: true });
    this.#body = h("div", { class: "diff-body", id: "diff-body" }, "Loading…");
    this.element = h(
      "section",
      { class: "screen diff", "aria-labelledby": "diff-title" },
      h(
        "header",
        { class: "screen-head" },
        this.#title,
        this.#meta,
        h("a", { href: `#pane/${pane}`, id: "diff-terminal" }, "Terminal"),
        h("button", { type: "button", id: "diff-refresh", onclick: () => this.load() }, "Refresh"),
        this.#landButton,
      ),
      this.#bar,
      this.#body,
    );
  }

  /** Lets go of the view's observer. */
  dispose(): void {
    this.#observer?.disconnect();
  }

  /** Reads the diff and shows it. */
  async load(): Promise<void> {
    const read = ++this.#reads;
    let view: DiffView;
    let render: Renderer;
    try {
      [view, render] = await Promise.all([
        this.#connection.call("diff", { pane: this.pane }),
        loadRenderer(),
      ]);
    } catch (error) {
      if (read !== this.#reads) return;
      this.#body.replaceChildren(
        h("p", { class: "problem", role: "alert", id: "diff-problem" }, refusalLine(error)),
      );
      return;
    }
    if (read !== this.#reads) return;
    this.#show(view, render);
  }

  #show(view: DiffView, render: Renderer): void {
    this.#observer?.disconnect();
    const tree = view.worktree;
    this.#title.textContent = `Diff · ${view.pane.name}`;
    const landed = tree.landed ? ` · landed on ${tree.landed.into}` : "";
    this.#meta.textContent = `${tree.branch} → ${tree.base} · ${
      plural(view.stat.files, "file")
    } · +${view.stat.added} −${view.stat.removed}${landed}`;
    if (view.files.length === 0) {
      this.#body.replaceChildren(
        h(
          "p",
          { class: "diff-empty", id: "diff-empty" },
          `No changes in ${tree.name} (${tree.branch}) against ${tree.base}.`,
        ),
      );
      return;
    }
    const parsed = render.parseFiles(view.patch);
    const drawn = h("div", { class: "diff-files", id: "diff-files" });
    // Every file gets a holder as tall as its lines will be; a holder is drawn when it comes near
    // the view, so a diff of thousands of files costs what is on the screen.
    const holders = parsed.map((file, index) =>
      h("div", {
        class: "diff-file",
        "data-path": render.parsedPath(file),
        "data-index": index,
        style: `min-height: ${render.estimatedHeight(file)}px`,
      })
    );
    const draw = (holder: HTMLElement) => {
      if (holder.dataset.drawn) return;
      holder.dataset.drawn = "1";
      holder.innerHTML = render.fileHtml(parsed[Number(holder.dataset.index)]);
      holder.style.minHeight = "";
      this.#observer?.unobserve(holder);
    };
    const byPath = new Map(holders.map((holder) => [holder.dataset.path!, holder]));
    const open = (path: string) => {
      const holder = byPath.get(path);
      if (!holder) return;
      draw(holder);
      holder.scrollIntoView({ block: "start" });
    };
    const list = h(
      "nav",
      { class: "diff-file-list", "aria-label": "Changed files" },
      h("ol", { id: "diff-file-list" }, view.files.map((file) => fileItem(file, open))),
    );
    drawn.append(...holders);
    if (view.truncated) {
      drawn.append(
        h(
          "p",
          { class: "diff-more", id: "diff-more" },
          `The patch is longer than ${
            Math.round(view.limit / 1024 / 1024)
          } MB: the files after this one are listed above but not drawn; 'skiff diff ${view.pane.name}' shows them all.`,
        ),
      );
    }
    this.#body.replaceChildren(list, drawn);
    this.#observer = new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) draw(entry.target as HTMLElement);
    }, { root: drawn, rootMargin: "600px 0px" });
    for (const holder of holders) this.#observer.observe(holder);
  }

  #say(text: string, tone: "info" | "ok" | "problem", ...buttons: HTMLElement[]): void {
    this.#bar.hidden = false;
    this.#bar.className = `land-bar ${tone}`;
    this.#bar.replaceChildren(h("span", { id: "land-line" }, text), ...buttons);
  }

  /** The Land button: a dry run first, then the question it leads to. */
  async #askToLand(): Promise<void> {
    this.#landButton.disabled = true;
    this.#say("Looking at what would land…", "info");
    try {
      const dry = await this.#connection.call("land", { pane: this.pane, dry_run: true });
      if (!hasWorkToLand(dry)) return this.#say(nothingToLand(dry), "info");
      const confirm = h("button", {
        type: "button",
        id: "land-confirm",
        class: "primary",
        onclick: () => this.#land(dry.worktree.branch, dry.base.name),
      }, "Land");
      const cancel = h("button", {
        type: "button",
        id: "land-cancel",
        onclick: () => this.#say(`Not landed: ${dry.worktree.branch} is as it was`, "info"),
      }, "Cancel");
      this.#say(landQuestion(dry), "info", confirm, cancel);
      confirm.focus();
    } catch (error) {
      this.#say(refusalLine(error), "problem");
    } finally {
      this.#landButton.disabled = false;
    }
  }

  async #land(branch: string, base: string): Promise<void> {
    this.#landButton.disabled = true;
    this.#say(`Landing ${branch} onto ${base}…`, "info");
    try {
      const result = await this.#connection.call("land", { pane: this.pane, dry_run: false });
      this.#say(landOutcome(result), "ok");
      this.#landed();
    } catch (error) {
      this.#say(refusalLine(error), "problem");
    } finally {
      this.#landButton.disabled = false;
      await this.load();
    }
  }
}
