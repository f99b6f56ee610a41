// An Atom 1.0 document (RFC 4287) of newly published records. Entry ids are name-based UUIDs of the CVE
// id: the same in the whole catalog's feed and a project's, on every deployment and whatever its host
// name, so a reader never shows a record twice and a move of the service does not repeat the feed.
import { createHash } from 'node:crypto';
import type { RecordEntry } from '../../core/snapshot.js';
import { feedPath, PATHS, recordPagePath } from '../shared/paths.js';
import { xmlText } from './xml.js';

/** A fixed namespace of this service's names (RFC 9562 §5.5). */
const ID_NAMESPACE = Buffer.from('f24d1142bbb14f078435feaad01cedec', 'hex');
const CVE_PROGRAM = { name: 'CVE Program', uri: 'https://www.cve.org/' };

export interface FeedInput {
  readonly baseUrl: string;
  readonly serviceName: string;
  readonly serviceVersion: string;
  /** The project this feed is restricted to, if any. */
  readonly project: string | undefined;
  /** Newest published first. */
  readonly entries: readonly RecordEntry[];
  /** The feed's `updated` when it has no entries: the day the catalog was last verified. */
  readonly lastVerified: string;
}

export function atomFeed(feed: FeedInput): string {
  const { baseUrl, project } = feed;
  const entries = feed.entries.map((entry) => ({ entry, updated: updatedOf(entry) }));
  // The feed changed when its newest entry did; an empty one when its catalog was verified.
  const updated = entries.reduce<string | undefined>(
    (newest, { updated }) => (newest === undefined || Date.parse(updated) > Date.parse(newest) ? updated : newest),
    undefined,
  );
  const page = `${baseUrl}${PATHS.home}${project === undefined ? '' : `?project=${encodeURIComponent(project)}`}`;
  const title = project === undefined ? 'Newly published CVE records' : `Newly published CVE records: ${project}`;
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${nameId(`feed:${project ?? ''}`)}</id>
<title>${xmlText(title)}</title>
<subtitle>The most recently published CVE records${project === undefined ? '' : ` of ${xmlText(project)}`}, newest first.</subtitle>
<updated>${updated ?? `${feed.lastVerified}T00:00:00Z`}</updated>
<link rel="self" type="application/atom+xml" href="${xmlText(baseUrl + feedPath(project))}"/>
<link rel="alternate" type="text/html" href="${xmlText(page)}"/>
<author><name>${xmlText(feed.serviceName)}</name><uri>${xmlText(`${baseUrl}${PATHS.home}`)}</uri></author>
<generator uri="${xmlText(`${baseUrl}${PATHS.home}`)}" version="${xmlText(feed.serviceVersion)}">${xmlText(feed.serviceName)}</generator>
${entries.map(({ entry, updated }) => atomEntry(baseUrl, entry, updated)).join('')}</feed>
`;
}

function atomEntry(baseUrl: string, entry: RecordEntry, updated: string): string {
  const { record, summary, published } = entry;
  return `<entry>
<id>${nameId(`record:${record.id}`)}</id>
<title>${xmlText(`${record.id} (${record.project})`)}</title>
<link rel="alternate" type="text/html" href="${xmlText(baseUrl + recordPagePath(record.id))}"/>
${record.url === null ? '' : `<link rel="related" type="text/html" href="${xmlText(record.url)}"/>\n`}<published>${published}T00:00:00Z</published>
<updated>${updated}</updated>
<author><name>${CVE_PROGRAM.name}</name><uri>${CVE_PROGRAM.uri}</uri></author>
<category term="${xmlText(record.project)}"/>
${summary === undefined ? '' : `<summary type="text">${xmlText(summary)}</summary>\n`}</entry>
`;
}

/** When the record last changed, else the day it was published (feeds list only published records). */
function updatedOf(entry: RecordEntry): string {
  return entry.modified ?? `${entry.published}T00:00:00Z`;
}

/** A name-based (version 5) UUID URN. */
function nameId(name: string): string {
  const hash = createHash('sha1').update(ID_NAMESPACE).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
