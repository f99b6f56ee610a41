import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareListingOrder } from '../../src/core/cve-id.js';

describe('listing order: newest first, by year then sequence number, compared as numbers', () => {
  it('puts later years first', () => {
    expect(compareListingOrder('CVE-2025-0001', 'CVE-2024-99999')).toBeLessThan(0);
  });

  it('compares sequence numbers as numbers, not text', () => {
    const ids = ['CVE-2025-9999', 'CVE-2025-10000', 'CVE-2025-100000', 'CVE-2025-0999'];
    expect(ids.sort(compareListingOrder)).toEqual(['CVE-2025-100000', 'CVE-2025-10000', 'CVE-2025-9999', 'CVE-2025-0999']);
  });

  it('orders sequence numbers beyond 2^53 correctly', () => {
    expect(compareListingOrder('CVE-2025-90071992547409930', 'CVE-2025-90071992547409929')).toBeLessThan(0);
  });

  it('is a total order: antisymmetric, and zero only for the same id', () => {
    const id = fc.tuple(fc.integer({ min: 1999, max: 2099 }), fc.stringMatching(/^[0-9]{1,22}$/)).map(([y, s]) => `CVE-${y}-${s}`);
    fc.assert(
      fc.property(id, id, (a, b) => {
        const ab = compareListingOrder(a, b);
        expect(Math.sign(ab)).toBe(-Math.sign(compareListingOrder(b, a)));
        expect(ab === 0).toBe(a === b);
      }),
    );
  });

  it('is transitive', () => {
    const id = fc.tuple(fc.integer({ min: 2020, max: 2022 }), fc.stringMatching(/^[0-9]{1,6}$/)).map(([y, s]) => `CVE-${y}-${s}`);
    fc.assert(
      fc.property(id, id, id, (a, b, c) => {
        if (compareListingOrder(a, b) < 0 && compareListingOrder(b, c) < 0) expect(compareListingOrder(a, c)).toBeLessThan(0);
      }),
    );
  });
});
