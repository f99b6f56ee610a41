import type { CveRecord, RecordStatus } from '../contract/index.js';

/** What the core keeps of a catalog record: the public view plus the fields only search reads. */
export interface RecordEntry {
  readonly record: CveRecord;
  readonly summary: string | undefined;
  readonly published: string | undefined;
}

export interface ListFilters {
  readonly project?: string | undefined;
  readonly status?: RecordStatus | undefined;
}
