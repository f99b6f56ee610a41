// Vendors and product families as people name them: "cisco devices", "fortinet products", "windows
// flaws", "qualcomm chipsets". The records carry the affected vendor only in their details, which the
// search index does not hold, so a vendor word is read through project names: the projects whose name
// begins with the word (Cisco IOS XE Software, Fortinet FortiOS, Windows 10 Version 1809), and, for
// vendors whose products do not carry their name, the product names in the curated table below
// (test/core/search-vendor-families.test.ts checks each entry against the records' own vendor field).
import type { RecordTable } from '../record-table.js';
import { words } from './words.js';

export interface VendorProducts {
  /** The vendor's name as people type it, one word, lower case. */
  readonly vendor: string;
  /** How the names of its projects begin, when they do not begin with the vendor's name. */
  readonly names: RegExp;
}

export const VENDOR_PRODUCTS: readonly VendorProducts[] = [
  { vendor: 'microsoft', names: /^(?:windows|azure|office|exchange server|sharepoint|visual studio|\.net|skype|outlook)\b/i },
  { vendor: 'google', names: /^(?:android|chrome|fuchsia|grpc|tink|nest)\b/i },
  { vendor: 'apple', names: /^(?:macos|ios|ipados|tvos|watchos|visionos|safari|itunes|airpods)\b/i },
  { vendor: 'qualcomm', names: /^snapdragon\b/i },
  { vendor: 'siemens', names: /^(?:simatic|sinec|sinema|scalance|ruggedcom|jt2go|teamcenter|parasolid|tecnomatix|sipass|siveillance)\b/i },
  { vendor: 'mediatek', names: /^mt\d{4}/i },
  { vendor: 'samsung', names: /^(?:galaxy|exynos)\b/i },
  { vendor: 'huawei', names: /^(?:harmonyos|emui|fusioncompute)\b/i },
  { vendor: 'ibm', names: /^(?:db2|aspera|maximo|infosphere|websphere|qradar|cognos|txseries|security (?:guardium|verify))\b/i },
  { vendor: 'juniper', names: /^junos\b/i },
  { vendor: 'atlassian', names: /^(?:jira|confluence|bitbucket|bamboo|crowd|fisheye|sourcetree)\b/i },
  { vendor: 'ivanti', names: /^(?:avalanche|connect secure|policy secure|endpoint manager|epm)\b/i },
  { vendor: 'mozilla', names: /^(?:firefox|thunderbird)\b/i },
  { vendor: 'fortinet', names: /^forti/i },
  {
    vendor: 'adobe',
    names: /^(?:acrobat|animate|indesign|illustrator|photoshop|coldfusion|after effects|substance3d|lightroom|media encoder)\b/i,
  },
  { vendor: 'oracle', names: /^(?:mysql|vm virtualbox|java|peoplesoft|weblogic|solaris|jd edwards|flexcube|hyperion)\b/i },
];

/** Projects a word must begin to be read as their family: one project is a name, not a family. */
const MIN_FAMILY = 2;
/** Shorter words ("d" of D-Link) begin names by accident. */
const MIN_FAMILY_WORD = 3;
/**
 * A family's records must be at least this share of the records whose text holds the word: "cisco" begins
 * the names of most records that say "cisco", while "remote" or "data" begin a few names among thousands
 * of records that use the word for something else.
 */
const MIN_FAMILY_SHARE = 0.25;
/** A word beginning more names than this ("wp") says little about which records are wanted. */
const MAX_FAMILY = 2000;

export interface VendorFamilies {
  /**
   * The projects of a vendor or family named by `word`, sorted; empty when the word names none.
   * `textRecords` is how many records hold the word in their text.
   */
  projectsOf(word: string, textRecords: number): readonly string[];
}

const cache = new WeakMap<RecordTable, VendorFamilies>();

/** The families of a catalog's project names, worked out once per record table. */
export function vendorFamilies(table: RecordTable): VendorFamilies {
  let families = cache.get(table);
  if (!families) {
    families = buildVendorFamilies(table);
    cache.set(table, families);
  }
  return families;
}

function buildVendorFamilies(table: RecordTable): VendorFamilies {
  const { projectNames, projectOf } = table;
  const recordsOf = new Map<string, number>();
  const counts = new Uint32Array(projectNames.length);
  for (const project of projectOf) counts[project]!++;
  projectNames.forEach((name, i) => {
    recordsOf.set(name, counts[i]!);
  });
  const byFirstWord = new Map<string, string[]>();
  const curated = new Map<string, string[]>(VENDOR_PRODUCTS.map((entry) => [entry.vendor, []]));
  for (const name of projectNames) {
    const first = words(name)[0];
    if (first !== undefined) {
      const family = byFirstWord.get(first);
      if (family) family.push(name);
      else byFirstWord.set(first, [name]);
    }
    for (const entry of VENDOR_PRODUCTS) if (entry.names.test(name)) curated.get(entry.vendor)!.push(name);
  }
  return {
    projectsOf(word, textRecords) {
      const own = word.length >= MIN_FAMILY_WORD ? (byFirstWord.get(word) ?? []) : [];
      const ownRecords = own.reduce((sum, name) => sum + recordsOf.get(name)!, 0);
      const family = own.length >= MIN_FAMILY && ownRecords >= MIN_FAMILY_SHARE * textRecords ? own : [];
      const named = [...family, ...(curated.get(word) ?? [])];
      return named.length > MAX_FAMILY ? [] : [...new Set(named)].sort();
    },
  };
}
