// What the version filters read of each record: its affected products with their version entries, kept
// per position and made from the record's details by one function (recordVersions), so a change to a
// snapshot can make a changed record's again without the others. Built once per snapshot, in steps, on
// first use; a list filtered by project and version checks only the project's records.
import type { AffectedProduct, RecordDetails } from '../../contract/index.js';
import { type CheckedDetails, checkRecord, type RecordVerdict, UNKNOWN } from './record-check.js';

/** A record's products as the checks read them; undefined for a record that lists none. */
export type RecordVersions = CheckedDetails | undefined;

/** The checked part of a record's details (its stored JSON parsed), or undefined when it lists no product. */
export function recordVersions(details: Pick<RecordDetails, 'affected' | 'adpAffected'> | undefined): RecordVersions {
  if (details === undefined) return undefined;
  const { affected, adpAffected } = details;
  return affected.length === 0 && (adpAffected?.length ?? 0) === 0 ? undefined : { affected, adpAffected };
}

/** Lower case, `_` as a space: how a product's name is compared with a project's names (CISA-ADP writes CPE tokens). */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a product is one of the names given (a project and its other spellings). A record's project is
 * named from one of its products; a record whose products all name others (a vendor, a repository) is
 * checked on all of them.
 */
function namedIn(names: ReadonlySet<string>): (product: AffectedProduct) => boolean {
  return (product) => [product.product, product.packageName].some((name) => name !== null && names.has(nameKey(name)));
}

export class VersionIndex {
  constructor(private readonly records: readonly RecordVersions[]) {}

  /** The record's status for a version of a project (its canonical name and other spellings, as name keys). */
  checkProject(position: number, version: string, names: ReadonlySet<string>): RecordVerdict {
    const record = this.records[position];
    if (record === undefined) return UNKNOWN;
    const selects = namedIn(names);
    const named = [...record.affected, ...(record.adpAffected ?? [])].some(selects);
    return checkRecord(record, version, named ? selects : undefined);
  }

  /** The record's products, for a page that says which range matched. */
  versionsAt(position: number): RecordVersions {
    return this.records[position];
  }
}

/** The index of a snapshot's records, read from their details a thousand at a time (a step each). */
export function* versionIndexSteps(size: number, details: (position: number) => string | undefined): Generator<void, VersionIndex, void> {
  const records: RecordVersions[] = new Array(size);
  for (let position = 0; position < size; position++) {
    const json = details(position);
    records[position] = json === undefined ? undefined : recordVersions(JSON.parse(json) as RecordDetails);
    if (position % 1000 === 999) yield;
  }
  return new VersionIndex(records);
}

/** The name keys of a project: its canonical name and its other spellings. */
export function projectNameKeys(project: string, aliases: readonly string[]): ReadonlySet<string> {
  return new Set([project, ...aliases].map(nameKey));
}
