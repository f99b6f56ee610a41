// The text agents read for a record's details (MCP fetch): the facts a person asks first, from the details.
import { describe, expect, it } from 'vitest';
import { type CveRecordDetails, NO_DETAILS } from '../../src/contract/index.js';
import { detailsText } from '../../src/http/shared/details-text.js';

const base: CveRecordDetails = {
  id: 'CVE-2024-6119',
  project: 'OpenSSL',
  status: 'public',
  url: 'https://www.cve.org/CVERecord?id=CVE-2024-6119',
  modified: null,
  severity: null,
  ...NO_DETAILS,
};
const cna = { container: 'cna' as const, shortName: 'openssl' };
const adp = { container: 'adp' as const, shortName: 'CISA-ADP' };

describe('detailsText', () => {
  it('says the severity with its score and source, KEV, SSVC, weaknesses and a few affected products', () => {
    const text = detailsText(
      {
        ...base,
        title: 'Possible denial of service in X.509 name checks',
        description: 'Applications performing certificate name checks may crash.',
        severity: 'high',
        metrics: [
          { version: '3.1', vector: 'CVSS:3.1/AV:N', baseScore: 7.5, severity: 'high', source: adp },
          { version: '4.0', vector: 'CVSS:4.0/AV:N', baseScore: 5.3, severity: 'medium', source: cna },
        ],
        kev: { dateAdded: '2024-09-10', reference: null },
        ssvc: { exploitation: 'active', automatable: 'yes', technicalImpact: 'partial', timestamp: null, source: adp },
        problemTypes: [
          { cweId: 'CWE-843', description: 'CWE-843 Type Confusion', source: cna },
          { cweId: 'CWE-843', description: 'CWE-843', source: adp },
        ],
        affected: Array.from({ length: 7 }, (_, i) => ({
          vendor: 'OpenSSL',
          product: `OpenSSL ${i}`,
          packageName: null,
          packageURL: null,
          versions: i === 0 ? 'affected from 3.0.0 before 3.0.15' : '',
        })),
      },
      undefined,
    );
    expect(text.split('\n')).toEqual([
      'Possible denial of service in X.509 name checks',
      'Applications performing certificate name checks may crash.',
      'Severity high (CVSS 3.1 7.5, CISA-ADP). Known exploited (CISA KEV since 2024-09-10). SSVC exploitation: active. Weakness: CWE-843.',
      'Affected: OpenSSL OpenSSL 0: affected from 3.0.0 before 3.0.15; OpenSSL OpenSSL 1; OpenSSL OpenSSL 2; OpenSSL OpenSSL 3; OpenSSL OpenSSL 4; and 2 more.',
    ]);
  });

  it('falls back to the summary, then to what the status says', () => {
    expect(detailsText(base, 'A summary.')).toBe('A summary.');
    expect(detailsText(base, undefined)).toBe('No description.');
    expect(detailsText({ ...base, status: 'assigned-no-public-record', url: null }, undefined)).toBe(
      'The id is assigned; no record is public yet.',
    );
  });
});
