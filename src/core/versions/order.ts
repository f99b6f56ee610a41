// What every ordering of versions offers (version-order.ts picks one per versionType).

/** A total order on the versions of one type; `parse` is undefined for a text that is no version of it. */
export interface VersionOrder<K> {
  readonly name: string;
  parse(text: string): K | undefined;
  compare(a: K, b: K): number;
}

// biome-ignore lint/suspicious/noExplicitAny: each order keeps its own key type; callers only pass keys back to it.
export type AnyVersionOrder = VersionOrder<any>;
