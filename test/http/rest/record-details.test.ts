// Record details against their source: real CVE JSON 5 records cut from ../shared/data/cvelist-sample.zip
// (test/fixtures/cve-details), imported by the importer, served from a JSON catalog and from a snapshot
// file, compared field by field with what a plain walk of each source record finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordDetails } from '../../../src/contract/index.js';
import { type DetailsFixture, type Json, serveDetailsFixture, UNPUBLISHED } from '../../support/details-fixture.js';

let fixture: DetailsFixture;
let sources: Json[];
let apps: DetailsFixture['apps'];

beforeAll(async () => {
  fixture = await serveDetailsFixture();
  ({ sources, apps } = fixture);
});

afterAll(() => fixture.close());

const published = () => sources.filter((s) => s.cveMetadata.state === 'PUBLISHED');
const rejected = () => sources.filter((s) => s.cveMetadata.state === 'REJECTED');
const containersOf = (s: Json): { body: Json; source: Json }[] => [
  { body: s.containers.cna, source: { container: 'cna', shortName: s.containers.cna.providerMetadata?.shortName ?? null } },
  ...(s.containers.adp ?? []).map((body: Json) => ({
    body,
    source: { container: 'adp', shortName: body.providerMetadata?.shortName ?? null },
  })),
];
const utc = (time: string | undefined) =>
  time === undefined ? null : new Date(/[Z+-]\d*:?\d*$/.test(time.slice(19)) ? time : `${time}Z`).toISOString();
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const CVSS = { cvssV4_0: '4.0', cvssV3_1: '3.1', cvssV3_0: '3.0', cvssV2_0: '2.0' } as const;
const v2Severity = (score: number) => (score < 4 ? 'low' : score < 7 ? 'medium' : 'high');
const otherOf = (body: Json, type: string): Json[] =>
  (body.metrics ?? []).filter((m: Json) => m.other?.type === type).map((m: Json) => m.other.content);

/** What the details of a published record must say, read straight from its CVE JSON 5 source. */
function expectedDetails(s: Json): Json {
  const cna = s.containers.cna;
  const containers = containersOf(s);
  const seen = new Set<string>();
  const ssvc = containers.flatMap(({ body, source }) => otherOf(body, 'ssvc').map((content) => ({ content, source })))[0];
  // CISA-ADP's options ([{"Exploitation": "none"}]) or the SSVC 1.0.1 selections of the CVE schema.
  const ssvcOption = (name: string) =>
    (
      ssvc?.content.options?.find((o: Json) => name in o)?.[name] ??
      ssvc?.content.selections?.find((o: Json) => o.name === name)?.values.join(', ')
    )?.toLowerCase() ?? null;
  const kev = containers.filter(({ source }) => source.shortName === 'CISA-ADP').flatMap(({ body }) => otherOf(body, 'kev'))[0];
  return {
    id: s.cveMetadata.cveId,
    status: 'public',
    url: `https://www.cve.org/CVERecord?id=${s.cveMetadata.cveId}`,
    title: cna.title === undefined ? null : oneLine(cna.title),
    description: oneLine(cna.descriptions.find((d: Json) => d.lang.startsWith('en')).value),
    state: 'PUBLISHED',
    assigner: s.cveMetadata.assignerShortName,
    datePublished: utc(s.cveMetadata.datePublished),
    dateUpdated: utc(s.cveMetadata.dateUpdated),
    problemTypes: containers.flatMap(({ body, source }) =>
      (body.problemTypes ?? []).flatMap((p: Json) =>
        p.descriptions.map((d: Json) => ({ cweId: d.cweId ?? null, description: d.description, source })),
      ),
    ),
    metrics: containers.flatMap(({ body, source }) =>
      (body.metrics ?? []).flatMap((m: Json) =>
        Object.entries(CVSS)
          .filter(([key]) => key in m)
          .map(([key, version]) => ({
            version,
            vector: m[key].vectorString,
            baseScore: m[key].baseScore,
            severity: version === '2.0' ? v2Severity(m[key].baseScore) : m[key].baseSeverity.toLowerCase(),
            source,
          })),
      ),
    ),
    kev: kev === undefined ? null : { dateAdded: kev.dateAdded, reference: kev.reference },
    ssvc:
      ssvc === undefined
        ? null
        : {
            exploitation: ssvcOption('Exploitation'),
            automatable: ssvcOption('Automatable'),
            technicalImpact: ssvcOption('Technical Impact'),
            timestamp: utc(ssvc.content.timestamp),
            source: ssvc.source,
          },
    references: containers.flatMap(({ body }) =>
      (body.references ?? [])
        .filter((r: Json) => !seen.has(r.url) && seen.add(r.url))
        .map((r: Json) => ({ url: r.url, name: r.name ?? null, tags: r.tags ?? [] })),
    ),
  };
}

describe('record details', () => {
  it('come from a fixture that has every kind of statement the details read', () => {
    const all = published();
    const cvss = new Set(all.flatMap((s) => containersOf(s).flatMap(({ body }) => (body.metrics ?? []).flatMap(Object.keys))));
    expect([...cvss]).toEqual(expect.arrayContaining(Object.keys(CVSS)));
    expect(all.some((s) => (s.containers.adp ?? []).some((a: Json) => (a.metrics ?? []).some((m: Json) => m.cvssV3_1)))).toBe(true);
    expect(all.filter((s) => containersOf(s).some(({ body }) => otherOf(body, 'kev').length > 0)).length).toBeGreaterThanOrEqual(2);
    expect(all.some((s) => otherOf(s.containers.cna, 'ssvc').length > 0)).toBe(true);
    expect(
      all.some((s) => new Set(s.containers.cna.problemTypes?.flatMap((p: Json) => p.descriptions.map((d: Json) => d.cweId))).size >= 3),
    ).toBe(true);
    expect(Math.max(...all.map((s) => s.containers.cna.affected?.length ?? 0))).toBeGreaterThanOrEqual(15);
    expect(rejected().length).toBeGreaterThanOrEqual(2);
  });

  for (const from of ['json', 'snapshot'] as const) {
    it(`match their CVE JSON 5 source field by field (served from a ${from} catalog)`, async () => {
      for (const source of published()) {
        const id = source.cveMetadata.cveId;
        const response = await apps[from]!.inject(`/api/v1/cve-records/${id}/details`);
        expect(response.statusCode, id).toBe(200);
        const details = response.json() as CveRecordDetails;
        expect(details, id).toMatchObject(expectedDetails(source));
        expect(details.modified, id).toBe(utc(source.cveMetadata.dateUpdated ?? source.cveMetadata.datePublished));
        const ranks = ['critical', 'high', 'medium', 'low', 'none'];
        const best = Math.min(...details.metrics.map((m) => ranks.indexOf(m.severity)));
        expect(details.severity, id).toBe(details.metrics.length === 0 ? null : ranks[best]);
        // Every affected product, each version statement in its words, in the source's order.
        const affected = source.containers.cna.affected ?? [];
        expect(
          details.affected.map(({ vendor, product, packageName, packageURL }) => ({ vendor, product, packageName, packageURL })),
          id,
        ).toEqual(
          affected.map((a: Json) => ({
            vendor: a.vendor ?? null,
            product: a.product ?? null,
            packageName: a.packageName ?? null,
            packageURL: null,
          })),
        );
        affected.forEach((a: Json, i: number) => {
          const words = (a.versions ?? []).flatMap((v: Json) =>
            [v.status, v.version === '0' ? [] : v.version, v.lessThan ?? v.lessThanOrEqual ?? []].flat(),
          );
          let at = 0;
          for (const word of words) {
            at = details.affected[i]!.versions.indexOf(word, at);
            expect(at, `${id} ${word}`).toBeGreaterThanOrEqual(0);
          }
          if (a.defaultStatus) expect(details.affected[i]!.versions.endsWith(`otherwise ${a.defaultStatus}`)).toBe(true);
          // What version checks read: the entries as the record states them, field by field.
          expect(details.affected[i], id).toMatchObject({
            collectionURL: a.collectionURL ?? null,
            cpes: a.cpes ?? [],
            defaultStatus: a.defaultStatus ?? null,
            versionList: (a.versions ?? []).map((v: Json) => ({
              version: v.version,
              status: v.status,
              versionType: v.versionType ?? null,
              lessThan: v.lessThan ?? null,
              lessThanOrEqual: v.lessThanOrEqual ?? null,
              changes: v.changes ?? [],
            })),
          });
        });
      }
    });
  }

  it('are a 404 for a rejected record, like any id with no record', async () => {
    for (const source of rejected()) {
      const response = await apps.snapshot!.inject(`/api/v1/cve-records/${source.cveMetadata.cveId}/details`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'record_not_found' } });
    }
    expect((await apps.snapshot!.inject('/api/v1/cve-records/not-an-id/details')).statusCode).toBe(404);
  });

  it('of a record with no public CVE record are null and empty', async () => {
    const response = await apps.json!.inject(`/api/v1/cve-records/${UNPUBLISHED}/details`);
    expect(response.json()).toEqual({
      id: UNPUBLISHED,
      project: 'curl',
      status: 'assigned-no-public-record',
      url: null,
      modified: null,
      severity: null,
      title: null,
      description: null,
      state: null,
      assigner: null,
      datePublished: null,
      dateUpdated: null,
      problemTypes: [],
      metrics: [],
      kev: null,
      ssvc: null,
      affected: [],
      references: [],
    });
  });

  it('come 50 at a time, in request order, with the ids that have no record', async () => {
    const ids = [rejected()[0]!.cveMetadata.cveId, ...published().map((s) => s.cveMetadata.cveId), UNPUBLISHED, 'CVE-1999-9999'];
    const response = await apps.snapshot!.inject({ method: 'POST', url: '/api/v1/cve-records/details/batch', payload: { recordIds: ids } });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { records: CveRecordDetails[]; missing: string[] };
    expect(body.missing).toEqual([ids[0], 'CVE-1999-9999']);
    expect(body.records.map((r) => r.id)).toEqual(ids.slice(1, -1));
    const one = await apps.snapshot!.inject(`/api/v1/cve-records/${ids[1]}/details`);
    expect(body.records[0]).toEqual(one.json());
    const tooMany = Array.from({ length: 51 }, (_, i) => `CVE-2024-${1000 + i}`);
    const refused = await apps.snapshot!.inject({
      method: 'POST',
      url: '/api/v1/cve-records/details/batch',
      payload: { recordIds: tooMany },
    });
    expect(refused.statusCode).toBe(400);
  });
});
