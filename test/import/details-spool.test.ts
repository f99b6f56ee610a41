// The import's spooled details are encoded where they land in the spool's buffer (stop 36): every text
// reads back as it was added, across writes of the buffer and texts larger than it.
import { describe, expect, it } from 'vitest';
import { detailFilters } from '../../src/core/record-table.js';
import { DetailsSpool } from '../../src/import/details-spool.js';
import { VARIED_TEXTS as TEXTS } from '../support/varied-texts.js';

describe('the details spool', () => {
  it('reads every text back as it was added, in the order asked, across writes and texts larger than its buffer', () => {
    const spool = new DetailsSpool();
    const added = [...TEXTS, undefined, ...TEXTS.map((text) => `${text}!`)];
    for (const json of added) spool.add(json === undefined ? undefined : { json, filters: detailFilters(undefined) });
    const order = added.map((_, i) => added.length - 1 - i);
    const details = spool.inOrder(order);
    order.forEach((from, i) => {
      expect(details.text(i)).toBe(added[from]);
      expect(details.byteLength(i)).toBe(added[from] === undefined ? -1 : Buffer.byteLength(added[from]!));
    });
    spool.close();
  });
});
