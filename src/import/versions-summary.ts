// An affected product's versions in words, for people and agents: CVE JSON 5 states them as a list of
// single versions and ranges with statuses (and status changes inside a range), and a default status for
// every version the list does not name.
import { isObject, type JsonObject } from './cve-json5-values.js';

/**
 * e.g. `affected from 5.10 before 5.15.3; unaffected 5.15.3; otherwise unaffected`. A range starting at
 * "0" (the schema's convention for "the earliest version") reads `before`/`through` alone.
 */
export function versionsSummary(versions: readonly JsonObject[], defaultStatus: string | null): string {
  const parts = versions.flatMap((entry) => {
    const version = word(entry.version);
    const status = word(entry.status);
    if (version === undefined || status === undefined) return [];
    const lessThan = word(entry.lessThan);
    const through = word(entry.lessThanOrEqual);
    const from = version === '0' ? '' : ` from ${version}`;
    let part =
      lessThan !== undefined
        ? `${status}${from} before ${lessThan}`
        : through !== undefined
          ? `${status}${from} through ${through}`
          : `${status} ${version}`;
    const changes = Array.isArray(entry.changes) ? entry.changes.filter(isObject) : [];
    for (const change of changes) {
      const at = word(change.at);
      const changed = word(change.status);
      if (at !== undefined && changed !== undefined) part += `, ${changed} from ${at}`;
    }
    return [part];
  });
  if (defaultStatus !== null) parts.push(`otherwise ${defaultStatus}`);
  return parts.join('; ');
}

function word(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
