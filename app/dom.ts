/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * Making DOM elements in one expression.
 *
 * @module
 */

/** Attributes and event handlers of {@linkcode h}. */
export type Props = Record<string, string | number | boolean | null | undefined | EventListener>;

/** A child: an element, text, or nothing. */
export type Child = Node | string | null | undefined | false;

/**
 * Makes an element. Props starting with `on` add listeners; `true` sets a
 * boolean attribute, and `false`, `null` or `undefined` leave it out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Makes an SVG element. */
export function svg(tag: string, attrs: Record<string, string | number>, ...children: Element[]) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
}
