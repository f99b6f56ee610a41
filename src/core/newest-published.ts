// The most recently published records, as the Atom feeds list them.
import { NO_DATE, type RecordTable, STATUS_CODES } from './record-table.js';

const PUBLIC = STATUS_CODES.indexOf('public');

/**
 * The positions of the `limit` most recently published records among `positions`, newest first; records
 * published the same day keep listing order (the newer id first). Records without a publication date are
 * left out. One pass keeping the best `limit` in order: a candidate older than the last kept is dropped
 * after one comparison, so even the whole catalog is a short loop over typed arrays.
 */
export function newestPublished(table: RecordTable, positions: ArrayLike<number>, limit: number): number[] {
  const { published, status } = table;
  const newer = (a: number, b: number) => published[a]! > published[b]! || (published[a] === published[b] && a < b);
  const kept: number[] = [];
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (status[position] !== PUBLIC || published[position] === NO_DATE) continue;
    if (kept.length === limit && !newer(position, kept[limit - 1]!)) continue;
    let at = kept.length;
    while (at > 0 && newer(position, kept[at - 1]!)) at--;
    kept.splice(at, 0, position);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
