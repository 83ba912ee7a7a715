/**
 * What a list says of a host whose link is not up, beside why: when the
 * host was last reached and when its link is tried next, so an old failure
 * does not read as current (`last reached 14:02:11, next try at 14:03:05`).
 *
 * @module
 */

import type { HostLink } from "../protocol/hosts.ts";

/** A time of day as `HH:MM:SS`, on this machine's clock. */
function clock(iso: string): string {
  const at = new Date(iso);
  return [at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((n) => String(n).padStart(2, "0")).join(":");
}

/**
 * When `link`'s host was last reached and when it is tried next: `last
 * reached 14:02:11, next try at 14:03:05`; `never reached` when it never
 * was; `trying now` while a try runs; `tried again when used` when no try
 * waits (nothing used it lately).
 */
export function linkTimes(link: Pick<HostLink, "state" | "last_up" | "next_try">): string {
  const reached = link.last_up === null ? "never reached" : `last reached ${clock(link.last_up)}`;
  const next = link.state === "connecting"
    ? "trying now"
    : link.next_try !== null
    ? `next try at ${clock(link.next_try)}`
    : link.state === "unreachable"
    ? "tried again when used"
    : undefined;
  return next === undefined ? reached : `${reached}, ${next}`;
}
