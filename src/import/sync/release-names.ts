// The file names of cvelistV5's release assets: a baseline of every record at midnight UTC
// (`2026-11-25_all_CVEs_at_midnight.zip.zip`) and deltas that hold everything added or changed since that
// midnight (`2026-11-25_delta_CVEs_at_0300Z.zip`, and `2026-11-25_delta_CVEs_at_end_of_day.zip`). Names
// are read tolerantly, since upstream has not always spelled them alike: any case, the hour with or
// without its minutes, one `.zip` or two.

export interface Release {
  readonly kind: 'baseline' | 'delta';
  /** The UTC day, YYYY-MM-DD. */
  readonly day: string;
  /**
   * Up to when it holds changes, as `YYYY-MM-DDTHH:00Z` (`T24:00Z` for the end of the day): strings that sort
   * in time order. A baseline is `T00:00Z` of its day.
   */
  readonly at: string;
  readonly name: string;
}

const BASELINE = /^(\d{4}-\d{2}-\d{2})_all_CVEs_at_midnight(?:\.zip){1,2}$/i;
const DELTA = /^(\d{4}-\d{2}-\d{2})_delta_CVEs_at_(?:(\d{2})(?:[:_]?(\d{2}))?Z|(end_of_day))(?:\.zip){1,2}$/i;

export function parseReleaseName(name: string): Release | undefined {
  const baseline = BASELINE.exec(name);
  if (baseline) return validDay(baseline[1]!) ? { kind: 'baseline', day: baseline[1]!, at: `${baseline[1]}T00:00Z`, name } : undefined;
  const delta = DELTA.exec(name);
  if (!delta || !validDay(delta[1]!)) return undefined;
  const hour = delta[4] ? 24 : Number(delta[2]);
  if (hour > 24 || (delta[3] !== undefined && delta[3] !== '00')) return undefined;
  return { kind: 'delta', day: delta[1]!, at: atHour(delta[1]!, hour), name };
}

export function baselineName(day: string): string {
  return `${day}_all_CVEs_at_midnight.zip.zip`;
}

/** The delta of a day up to an hour, 24 being the end of the day. */
export function deltaName(day: string, hour: number): string {
  return `${day}_delta_CVEs_at_${hour === 24 ? 'end_of_day' : `${String(hour).padStart(2, '0')}00Z`}.zip`;
}

export function atHour(day: string, hour: number): string {
  return `${day}T${String(hour).padStart(2, '0')}:00Z`;
}

function validDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
}
