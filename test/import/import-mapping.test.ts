import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MapResult, mapCveRecord } from '../../src/import/cve-json5.js';
import { collapseWhitespace, truncateAtWord } from '../../src/import/text.js';
import { repositoryUrl } from '../support/paths.js';

// Fixtures are real records cut from ../shared/data/cvelist-sample.zip: long lists (references, versions,
// ADP metrics) keep their first two items and long strings outside the CNA title and descriptions are
// shortened, so the structure and the mapped fields are those of the original record.
type Json = Record<string, any>;
const fixturesDir = repositoryUrl('test/fixtures/cve-json5/');
function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(name, fixturesDir), 'utf8')) as Json;
}

const url = (id: string): string => `https://www.cve.org/CVERecord?id=${id}`;

/**
 * The mapping without how the project was named, when the record changed and its details (each tested on its
 * own: the details in record-details.test.ts).
 */
function mapRecord(json: unknown, overrides?: ReadonlyMap<string, string>): unknown {
  const result = mapCveRecord(json, overrides);
  if (!result.ok) return result;
  const { naming: _, record, ...rest } = result;
  const { modified: __, details: ___, ...fields } = record;
  return { ...rest, record: fields };
}

describe('mapCveRecord: when a record last changed', () => {
  const modified = (json: Json) => {
    const result = mapCveRecord(json);
    return result.ok ? { modified: result.record.modified, warnings: result.warnings.map((w) => w.detail) } : result;
  };

  it('is cveMetadata.dateUpdated, in UTC with milliseconds', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    expect(json.cveMetadata.dateUpdated).toBeTypeOf('string');
    expect(modified(json)).toEqual({ modified: new Date(json.cveMetadata.dateUpdated).toISOString(), warnings: [] });
    json.cveMetadata.dateUpdated = '2024-05-08T17:30:00.123456+02:00';
    expect(modified(json)).toEqual({ modified: '2024-05-08T15:30:00.123Z', warnings: [] });
  });

  it('reads a timestamp without a time zone as UTC, as the CVE Services write them', () => {
    const json = fixture('containers-first.CVE-2013-1202.json');
    json.cveMetadata.dateUpdated = '2020-02-07T13:37:03';
    expect(modified(json)).toEqual({ modified: '2020-02-07T13:37:03.000Z', warnings: [] });
  });

  it('is the publication time of a record never updated, and a bad dateUpdated is a warning', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    delete json.cveMetadata.dateUpdated;
    expect(modified(json)).toEqual({ modified: new Date(json.cveMetadata.datePublished).toISOString(), warnings: [] });
    json.cveMetadata.dateUpdated = '2024-02-30T00:00:00Z';
    expect(modified(json)).toMatchObject({
      modified: new Date(json.cveMetadata.datePublished).toISOString(),
      warnings: [expect.stringContaining('dateUpdated "2024-02-30T00:00:00Z" is not a timestamp')],
    });
  });
});

describe('mapCveRecord: published records', () => {
  it('maps a dataVersion 5.1 record with a title and an English description', () => {
    expect(mapRecord(fixture('v51-published.CVE-2023-5365.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2023-5365',
        project: 'HP LIFE Android Mobile', // the product is "HP LIFE Android Mobile " in the record
        status: 'public',
        url: url('CVE-2023-5365'),
        summary:
          'HP LIFE Android Mobile – Potential Escalation of Privilege, Information Disclosure: ' +
          'HP LIFE Android Mobile application is potentially vulnerable to escalation of privilege and/or information disclosure.',
        published: '2023-10-09',
      },
    });
  });

  it('maps a dataVersion 5.0 record the same way', () => {
    // Every 5.0 record of the sample is REJECTED (see below), so the published 5.0 case is the 5.1
    // fixture relabelled: the two versions do not differ in the fields the mapping reads.
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.dataVersion = '5.0';
    const result = mapCveRecord(json);
    expect(result.ok && result.record.project).toBe('HP LIFE Android Mobile');
    expect(result).toEqual(mapCveRecord(fixture('v51-published.CVE-2023-5365.json')));
  });

  it('does not depend on key order (containers before cveMetadata, no title)', () => {
    const json = fixture('containers-first.CVE-2013-1202.json');
    expect(Object.keys(json)[0]).toBe('containers');
    expect(mapRecord(json)).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2013-1202',
        project: 'Cisco ACE',
        status: 'public',
        url: url('CVE-2013-1202'),
        summary: 'Cisco ACE A2(3.6) allows log retention DoS.',
        published: '2020-02-07', // datePublished has no time zone: "2020-02-07T13:37:03"
      },
    });
  });

  it('takes the first usable product of several affected entries', () => {
    expect(mapRecord(fixture('several-products.CVE-2023-50297.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2023-50297',
        project: 'PowerCMS (PowerCMS 6 Series)',
        status: 'public',
        url: url('CVE-2023-50297'),
        summary:
          'Open redirect vulnerability in PowerCMS (6 Series, 5 Series, and 4 Series) allows a remote unauthenticated ' +
          'attacker to redirect users to arbitrary web sites via a specially crafted URL. Note that all versions of ' +
          'PowerCMS 3 Series and earlier which are unsupported (End-of-Life, EOL) are also affected by this vulnerability.',
        published: '2023-12-26',
      },
    });
  });

  it('falls back to packageName when there is no product', () => {
    expect(mapRecord(fixture('package-name-only.CVE-2024-33998.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2024-33998',
        project: 'Moodle',
        status: 'public',
        url: url('CVE-2024-33998'),
        summary:
          "moodle: stored XSS via user's name on participants page when opening some options: " +
          "Insufficient escaping of participants' names in the participants page table resulted in a stored XSS risk " +
          'when interacting with some features.',
        published: '2024-05-31',
      },
    });
  });

  it('falls back to packageName when the product is n/a, then to another entry’s product, then to a vendor', () => {
    const json = fixture('several-products.CVE-2023-50297.json');
    const first = json.containers.cna.affected[0];
    first.product = ' N/A ';
    first.packageName = 'powercms';
    expect(project(mapCveRecord(json))).toBe('powercms');
    first.packageName = 'n/a';
    expect(project(mapCveRecord(json))).toBe('PowerCMS (PowerCMS 5 Series)');
    for (const entry of json.containers.cna.affected) entry.product = 'unspecified';
    expect(mapCveRecord(json)).toMatchObject({ naming: { name: 'Alfasado Inc.', step: 'cna-vendor' } });
  });

  it('tries the next affected entries when the first one names nothing', () => {
    const json = fixture('several-products.CVE-2023-50297.json');
    json.containers.cna.affected[0] = { vendor: 'n/a', product: 'n/a', versions: [] };
    json.containers.cna.affected.unshift('not an object', null);
    expect(project(mapCveRecord(json))).toBe('PowerCMS (PowerCMS 5 Series)');
  });

  it('keeps a product that is not n/a even when it says nothing ("None Available"); accepts lang en-US', () => {
    expect(mapRecord(fixture('en-us.CVE-2019-1183.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2019-1183',
        project: 'None Available',
        status: 'public',
        url: url('CVE-2019-1183'),
        summary:
          'Windows VBScript Engine Remote Code Execution Vulnerability: This information is being revised to indicate ' +
          'that this CVE (CVE-2019-1183) is fully mitigated by the security updates for the vulnerability discussed in ' +
          'CVE-2019-1194. No update is required.',
        published: '2019-08-14',
      },
    });
  });

  it('does not repeat a title that the description already starts with', () => {
    expect(mapRecord(fixture('description-starts-with-title.CVE-2022-35798.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2022-35798',
        project: 'Azure Arc Jumpstart',
        status: 'public',
        url: url('CVE-2022-35798'),
        summary: 'Azure Arc Jumpstart Information Disclosure Vulnerability',
        published: '2023-05-18',
      },
    });
  });

  it('joins a title that is only the CVE id like any other title', () => {
    const result = mapRecord(fixture('title-is-cve-id.CVE-2020-10129.json'));
    expect(result).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2020-10129',
        project: 'SearchBlox',
        status: 'public',
        url: url('CVE-2020-10129'),
        summary:
          'CVE-2020-10129: SearchBlox before Version 9.2.1 is vulnerable to Privileged Escalation-Lower user is able ' +
          'to access Admin functionality.',
        published: '2023-09-06',
      },
    });
  });

  it('uses the English description, not the German one', () => {
    const result = mapRecord(fixture('german-and-english.CVE-2023-5695.json'));
    expect(result).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2023-5695',
        project: 'Internet Banking System',
        status: 'public',
        url: url('CVE-2023-5695'),
        summary:
          'CodeAstro Internet Banking System pages_reset_pwd.php cross site scripting: A vulnerability was found in ' +
          'CodeAstro Internet Banking System 1.0. It has been declared as problematic. Affected by this vulnerability ' +
          'is an unknown functionality of the file pages_reset_pwd.php. The manipulation of the argument email with ' +
          "the input testing%40example.com'%26%25<ScRiPt%20>alert(9860)</ScRiPt> leads to cross site scripting. The " +
          'attack can be launched remotely. The exploit has been disclosed to the public and may be used. The ' +
          'identifier VDB-243133 was assigned to this vulnerability.',
        published: '2023-10-22',
      },
    });
  });

  it('cuts a long summary to 1000 characters at a word boundary with a trailing ellipsis', () => {
    expect(mapRecord(fixture('long-description.CVE-2024-52008.json'))).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2024-52008',
        project: 'fides',
        status: 'public',
        url: url('CVE-2024-52008'),
        summary:
          'Password Policy Bypass Vulnerability in Fides Webserver: Fides is an open-source privacy engineering' +
          ' platform. The user invite acceptance API endpoint lacks server-side password policy enforcement, al' +
          'lowing users to set arbitrarily weak passwords by bypassing client-side validation. While the UI enf' +
          'orces password complexity requirements, direct API calls can circumvent these checks, enabling the c' +
          'reation of accounts with passwords as short as a single character. When an email messaging provider ' +
          'is enabled and a new user account is created in the system, an invite email containing a special lin' +
          "k is sent to the new user's email address. This link directs the new user to a page where they can s" +
          'et their initial password. While the user interface implements password complexity checks, these val' +
          'idations are only performed client-side. The underlying `/api/v1/user/accept-invite` API endpoint do' +
          'es not implement the same password policy validations. This vulnerability allows an invited user to…',
        published: '2024-11-26',
      },
    });
  });

  it('omits published when datePublished is missing', () => {
    const json = fixture('no-date-published.CVE-2024-28277.json');
    expect(json.cveMetadata.datePublished).toBeUndefined();
    const overrides = new Map([['CVE-2024-28277', 'School Task Manager']]);
    expect(mapRecord(json, overrides)).toEqual({
      ok: true,
      warnings: [],
      record: {
        id: 'CVE-2024-28277',
        project: 'School Task Manager',
        status: 'public',
        url: url('CVE-2024-28277'),
        summary:
          'In Sourcecodester School Task Manager v1.0, a vulnerability was identified within the subject_name= ' +
          'parameter, enabling Stored Cross-Site Scripting (XSS) attacks. This vulnerability allows attackers to ' +
          "manipulate the subject's name, potentially leading to the execution of malicious JavaScript payloads.",
      },
    });
  });

  it('lets an override win over the affected list, and ignores an empty override', () => {
    const json = fixture('several-products.CVE-2023-50297.json');
    expect(project(mapCveRecord(json, new Map([['CVE-2023-50297', ' PowerCMS ']])))).toBe('PowerCMS');
    expect(project(mapCveRecord(json, new Map([['CVE-2023-50297', '  ']])))).toBe('PowerCMS (PowerCMS 6 Series)');
    expect(project(mapCveRecord(json, new Map([['CVE-2099-1', 'other']])))).toBe('PowerCMS (PowerCMS 6 Series)');
  });

  it('omits published when datePublished is not a real date, and summary when there is no text', () => {
    const json = fixture('containers-first.CVE-2013-1202.json');
    json.cveMetadata.datePublished = '2020-02-30T13:37:03';
    json.containers.cna.descriptions = [
      { lang: 'de', value: 'nur Deutsch' },
      { lang: 'en', value: ' \n ' },
    ];
    expect(mapRecord(json)).toEqual({
      ok: true,
      record: { id: 'CVE-2013-1202', project: 'Cisco ACE', status: 'public', url: url('CVE-2013-1202') },
      warnings: [
        {
          kind: 'invalid-date',
          detail: 'CVE-2013-1202: cveMetadata.datePublished "2020-02-30T13:37:03" is not a date; published left out',
        },
      ],
    });
  });
});

describe('what the campaign found (issue 11)', () => {
  it.each(['5.0', '5.1', '5.1.0', '5.1.1', '5.2.0', '5.10'])(
    'accepts dataVersion %s, as the CVE Record Format allows (item 6)',
    (version) => {
      const json = fixture('v51-published.CVE-2023-5365.json');
      json.dataVersion = version;
      expect(mapCveRecord(json).ok).toBe(true);
    },
  );

  it.each(['5', '5.', '5.01', '5.1.01', '6.0', '5.1.1.1'])('refuses dataVersion %s', (version) => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.dataVersion = version;
    expect(mapRecord(json)).toMatchObject({ ok: false, reason: 'invalid-format' });
  });

  it('a description that is one word over 1,000 characters still gives a summary (item 13)', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.containers.cna.title = 'Short title';
    json.containers.cna.descriptions = [{ lang: 'en', value: `Overflow ${'A'.repeat(1500)} end` }];
    const result = mapCveRecord(json);
    expect(result.ok && result.record.summary).toHaveLength(1000);
    expect(result.ok && result.record.summary).toMatch(/^Short title: Overflow AAAA.*A…$/);
  });

  it('an invalid datePublished is reported as a warning, and the record kept (item 13)', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.cveMetadata.datePublished = 'yesterday';
    const result = mapCveRecord(json);
    expect(result.ok && result.warnings).toEqual([
      { kind: 'invalid-date', detail: 'CVE-2023-5365: cveMetadata.datePublished "yesterday" is not a date; published left out' },
    ]);
  });

  it('drops zero-width and bidirectional control characters from names (item 13)', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.containers.cna.affected[0].product = '\u200BEvil\u202E Product\u2066';
    expect(project(mapCveRecord(json))).toBe('Evil Product');
  });
});

describe('mapCveRecord: skipped records', () => {
  it('names a record whose CNA names nothing (product and vendor n/a) through the cascade, never skips it', () => {
    const result = mapCveRecord(fixture('no-project-name.CVE-2024-41482.json'));
    expect(result.ok).toBe(true);
    expect(result.ok && result.naming.step).not.toBe('cna-product');
  });

  it('skips REJECTED records, 5.0 and 5.1, saying when they were rejected (for a sync to order the removal)', () => {
    expect(mapRecord(fixture('v50-rejected.CVE-2024-3514.json'))).toEqual({
      ok: false,
      reason: 'rejected',
      detail: 'CVE-2024-3514 is REJECTED',
      modified: '2024-04-24T16:13:48.705Z',
    });
    expect(mapRecord(fixture('v51-rejected-replaced.CVE-2024-40639.json'))).toEqual({
      ok: false,
      reason: 'rejected',
      detail: 'CVE-2024-40639 is REJECTED',
      modified: '2024-07-17T19:13:46.766Z',
    });
  });

  it('returns invalid-format for garbage, without throwing', () => {
    expect(mapRecord(null)).toEqual({ ok: false, reason: 'invalid-format', detail: 'record is null, not an object' });
    expect(mapRecord([])).toEqual({ ok: false, reason: 'invalid-format', detail: 'record is an array, not an object' });
    expect(mapRecord({ cveMetadata: 5 })).toEqual({
      ok: false,
      reason: 'invalid-format',
      detail: 'dataType is missing, expected "CVE_RECORD"',
    });
    expect(mapRecord({ dataType: 'CVE_RECORD', dataVersion: '5.1', cveMetadata: 5 })).toEqual({
      ok: false,
      reason: 'invalid-format',
      detail: 'cveMetadata is missing or not an object',
    });
    for (const input of [undefined, 42, 'CVE-2024-1', true, {}, { dataType: 'CVE_RECORD', dataVersion: 4 }]) {
      expect(mapRecord(input)).toMatchObject({ ok: false, reason: 'invalid-format' });
    }
  });

  it('returns invalid-format for a broken field of an otherwise real record', () => {
    const broken: Array<[string, (json: Json) => void, string]> = [
      ['dataVersion 4.0', (j) => (j.dataVersion = '4.0'), 'dataVersion is "4.0", expected 5.x'],
      ['bad id', (j) => (j.cveMetadata.cveId = 'CVE-23-5365'), 'cveMetadata.cveId is "CVE-23-5365", not a CVE id'],
      ['numeric id', (j) => (j.cveMetadata.cveId = 20235365), 'cveMetadata.cveId is 20235365, not a CVE id'],
      ['state RESERVED', (j) => (j.cveMetadata.state = 'RESERVED'), 'CVE-2023-5365: cveMetadata.state is "RESERVED"'],
      ['no state', (j) => delete j.cveMetadata.state, 'CVE-2023-5365: cveMetadata.state is missing'],
      ['no containers', (j) => delete j.containers, 'CVE-2023-5365: containers is missing or not an object'],
      ['cna is a list', (j) => (j.containers.cna = []), 'CVE-2023-5365: containers.cna is missing or not an object'],
      ['affected is a string', (j) => (j.containers.cna.affected = 'HP'), 'CVE-2023-5365: containers.cna.affected is not an array'],
    ];
    for (const [, breakIt, detail] of broken) {
      const json = fixture('v51-published.CVE-2023-5365.json');
      breakIt(json);
      expect(mapRecord(json)).toEqual({ ok: false, reason: 'invalid-format', detail });
    }
  });

  it('tolerates wrong types in the optional summary fields', () => {
    const json = fixture('v51-published.CVE-2023-5365.json');
    json.containers.cna.title = 42;
    json.containers.cna.descriptions = [null, { lang: 'en', value: 7 }, { lang: 'EN-gb', value: 'Colour  me\tbad.' }];
    expect(mapRecord(json)).toMatchObject({ ok: true, record: { summary: 'Colour me bad.' } });
    json.containers.cna.descriptions = 'text';
    const result = mapCveRecord(json);
    expect(result.ok && 'summary' in result.record).toBe(false);
  });

  it('never throws, even on a hostile object', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(mapRecord(hostile)).toEqual({ ok: false, reason: 'invalid-format', detail: 'unexpected error: boom' });
  });
});

describe('truncateAtWord', () => {
  it('leaves text of at most the limit unchanged', () => {
    expect(truncateAtWord('a b c', 5)).toBe('a b c');
    expect(truncateAtWord('x'.repeat(1000))).toBe('x'.repeat(1000));
  });
  it('cuts at the last space and appends an ellipsis, staying within the limit', () => {
    expect(truncateAtWord('alpha beta gamma', 12)).toBe('alpha beta…');
    expect(truncateAtWord('alpha beta gamma', 11)).toBe('alpha beta…');
    expect(truncateAtWord('alpha beta gamma', 10)).toBe('alpha…');
  });
  it('hard-cuts a single long word without splitting a surrogate pair', () => {
    expect(truncateAtWord('abcdefghij', 5)).toBe('abcd…');
    expect(truncateAtWord('abc😀defgh', 5)).toBe('abc…');
  });
});

function project(result: MapResult): string | undefined {
  return result.ok ? result.record.project : undefined;
}

describe('collapseWhitespace', () => {
  // The plain reading of the rule, which the function must equal: invisible format characters out, every
  // whitespace run one space, trimmed.
  const reference = (text: string) =>
    text
      .replace(/\p{Cf}+/gu, '')
      .replace(/\s+/gu, ' ')
      .trim();
  it('equals the plain reading for any mix of spaces, other whitespace, format characters and letters', () => {
    const chars = [' ', ' ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u200b', '\u202e', '\u2066', 'a', 'Z', 'é', '😀', '-'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(collapseWhitespace(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
