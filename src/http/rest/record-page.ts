// A list page written from stored record bytes (stored-records.ts) instead of serializing its records:
// the bytes are those Fastify's serializer would make from the CveRecordPage schema (fields in schema
// order), which rest-api tests compare with the parsed page.
import { PAGE_SCHEMA_VERSION, type PagePlan } from '../../core/list.js';
import type { Snapshot } from '../../core/snapshot.js';
import { SERVICE_VERSION } from '../../version.js';
import { entityTag } from '../edge/caching.js';
import { storedRecords } from './stored-records.js';

export function pageBody(snapshot: Snapshot, plan: PagePlan): string {
  const head = `{"schemaVersion":"${PAGE_SCHEMA_VERSION}","lastVerified":${JSON.stringify(snapshot.lastVerified)},"records":[`;
  const tail =
    `],"pagination":{"limit":${plan.limit},"returned":${plan.positions.length},"total":${plan.total},` +
    `"nextCursor":${plan.nextCursor === null ? 'null' : JSON.stringify(plan.nextCursor)}}}`;
  // One flat string, joined in one copy: Node sends a string in the same write as the header, and a page
  // built by `+` (a chain of string pairs) was copied once more to be measured and written, about 2 KB of
  // garbage a page of 20 (docs/PERFORMANCE.md, "Hot path, stop 38").
  const { positions } = plan;
  const stored = storedRecords(snapshot);
  const parts = new Array<string>(2 * positions.length + 2);
  parts[0] = head;
  for (let i = 0; i < positions.length; i++) {
    parts[2 * i + 1] = i > 0 ? ',' : '';
    parts[2 * i + 2] = stored.at(positions[i]!).body;
  }
  parts[parts.length - 1] = tail;
  return parts.join('');
}

/** Page tags kept per snapshot; past this many distinct URLs they are forgotten at once, as sealed cursors are (core/cursor.ts). */
const PAGE_TAGS_KEPT = 10_000;

/**
 * A page's strong ETag from what makes its bytes, not from the bytes: the snapshot (its version), the
 * code (the service version), the request's query (limit, filters, cursor: unknown parameters are
 * refused, so nothing else in the URL shapes the page) and `salt`, what else goes into the bytes (the
 * cursor secret, through a cursor it signs): a few dozen bytes hashed, whatever the page's size. Kept per
 * snapshot and URL, so a page asked for again costs a look-up: a hash object and its digest per request
 * were about 12 thousand instructions of a list request (docs/PERFORMANCE.md, issue 29).
 */
export function pageTagger(salt: string): (snapshot: Snapshot, url: string) => string {
  const kept = new WeakMap<Snapshot, Map<string, string>>();
  return (snapshot, url) => {
    let tags = kept.get(snapshot);
    if (!tags) {
      tags = new Map();
      kept.set(snapshot, tags);
    }
    let tag = tags.get(url);
    if (tag === undefined) {
      tag = entityTag(snapshot.version, SERVICE_VERSION, '\0', salt, '\0', url);
      if (tags.size >= PAGE_TAGS_KEPT) tags.clear();
      tags.set(url, tag);
    }
    return tag;
  };
}
