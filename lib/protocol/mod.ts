/**
 * The wire format shared by skiffd and its clients.
 *
 * @module
 */

export * from "./messages.ts";
export * from "./frames.ts";
