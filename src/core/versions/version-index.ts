// What the version filters read of each record: its affected products with their version entries, made
// from the record's stored details by one function (recordVersions) when a check reads them, the most
// recently read kept within a bound; which records name each package and CPE; and each project's ranges
// ordered by version (range-index.ts), which find the records a version of the project affects without
// checking the others. Each part is built on first use, in steps: a project's ranges from its own records
// when a version of it is first asked (the kernel's 19,000 records at 340,000, not all of them), the
// package and CPE lists from every record when a purl or CPE is first asked.
import type { AffectedProduct, RecordDetails, VersionStatus } from '../../contract/index.js';
import { Derived } from '../derived.js';
import { RecentlyUsed } from '../recently-used.js';
import { ANY, type CpeAttributes, isSpecific, matchesProduct, overlaps, PRODUCT, parseRecordCpe, VENDOR, VERSION } from './cpe-name.js';
import { productPackageKey } from './package-key.js';
import { namedIn, projectNameKeys } from './product-names.js';
import { type RangeAnswer, type RangeIndex, RangeIndexBuilder } from './range-index.js';
import { type CheckedDetails, checkRecord, checkRecordBy, type RecordVerdict, UNKNOWN } from './record-check.js';
import { checkProduct } from './version-check.js';

/** A record's products as the checks read them; undefined for a record that lists none. */
export type RecordVersions = CheckedDetails | undefined;

const NONE: readonly never[] = Object.freeze([]);

/**
 * The checked part of a record's details (its stored JSON parsed), or undefined when it lists no product:
 * only what a check or its explanation reads (not the versions in words), empty lists shared.
 */
export function recordVersions(details: Pick<RecordDetails, 'affected' | 'adpAffected'> | undefined): RecordVersions {
  if (details === undefined) return undefined;
  const { affected, adpAffected } = details;
  if (affected.length === 0 && (adpAffected?.length ?? 0) === 0) return undefined;
  const slim = (products: readonly AffectedProduct[]) => products.map(slimProduct);
  return { affected: slim(affected), adpAffected: adpAffected === undefined ? undefined : slim(adpAffected) };
}

function slimProduct(product: AffectedProduct): AffectedProduct {
  const text = (value: string | null | undefined) => value ?? null;
  return {
    vendor: text(product.vendor),
    product: text(product.product),
    packageName: text(product.packageName),
    packageURL: text(product.packageURL),
    versions: '',
    collectionURL: text(product.collectionURL),
    cpes: product.cpes?.length ? product.cpes : (NONE as unknown as string[]),
    defaultStatus: product.defaultStatus ?? null,
    versionList: product.versionList?.length
      ? product.versionList.map((entry) => ({
          version: entry.version,
          status: entry.status,
          versionType: text(entry.versionType),
          lessThan: text(entry.lessThan),
          lessThanOrEqual: text(entry.lessThanOrEqual),
          changes: entry.changes.length > 0 ? entry.changes : (NONE as never[]),
        }))
      : (NONE as never[]),
  };
}

/** A CPE query with the version it is checked at (its own version attribute, or the list's `version`). */
export interface CpeQuery {
  readonly attributes: CpeAttributes;
  readonly version: string | undefined;
}

/**
 * How many records, products and version entries the parsed records kept hold at most (about 150 bytes
 * each, so some 9 MB; keeping every record parsed took 450 MB at 340,000 records). A project's check
 * reads only the records its ranges leave (4% of the shipped data's) and a page's reasons; purl and CPE
 * checks read the records naming their package or CPE. A subject whose records weigh more than this is
 * parsed again at each check.
 */
const KEPT_WEIGHT = 60_000;
/** Records read between two yields of a build: parsing their details and placing their ranges, some 15 ms (the kernel's, 30). */
const RECORDS_PER_STEP = 250;
/**
 * Answers of the ranges kept, the least recently read going first: at most this many positions in all
 * (about 16 bytes each, so some 3 MB), and at most ANSWERS_KEPT answers. A batch of 100 pairs asks 100
 * answers, the kernel's at 340,000 records up to 19,000 positions each; keeping 16 made every batch find
 * all of them again (most of its time).
 */
const ANSWER_POSITIONS_KEPT = 200_000;
const ANSWERS_KEPT = 1024;
/** Parsed CPE names kept at most. */
const KEPT_CPES = 50_000;

/**
 * Records' products parsed from their stored details when a check first reads them, and kept while they
 * are among the most recently read (RecentlyUsed), within KEPT_WEIGHT.
 */
class ParsedRecords {
  readonly #kept: RecentlyUsed<number, RecordVersions>;

  constructor(
    private readonly details: (position: number) => string | undefined,
    keptWeight: number,
  ) {
    this.#kept = new RecentlyUsed(keptWeight);
  }

  get(position: number): RecordVersions {
    return this.#kept.use(position, () => {
      const json = this.details(position);
      const versions = json === undefined ? undefined : recordVersions(JSON.parse(json) as RecordDetails);
      const weight = 1 + (versions === undefined ? 0 : productsOf(versions).reduce((sum, p) => sum + 1 + (p.versionList?.length ?? 0), 0));
      return { value: versions, weight };
    });
  }
}

/** What a query reads of the index beside the records: the ranges of some projects (by code), the package and CPE lists. */
export interface VersionParts {
  readonly projects: readonly number[];
  readonly names: boolean;
}

export class VersionIndex {
  /** Parsed CPE names by their text: records repeat a few thousand names (the kernel's, Windows') many times. */
  readonly #cpes = new Map<string, CpeAttributes | null>();
  readonly #records: ParsedRecords;
  /** Each project's ranges, by its code, built when a version of it is first asked. */
  readonly #ranges = new Map<number, Derived<RangeIndex>>();
  /** Which records name each package and CPE, built when a purl or CPE is first asked. */
  readonly #names: Derived<NameLists>;
  /** The last answers of the ranges: each page of a list asks again (the kernel's 6.1.5 is 5,000 records at 340,000). */
  readonly #answers = new RecentlyUsed<string, RangeAnswer | undefined>(ANSWER_POSITIONS_KEPT, ANSWERS_KEPT);

  constructor(
    private readonly source: VersionSource,
    keptWeight = KEPT_WEIGHT,
  ) {
    this.#records = new ParsedRecords(source.details, keptWeight);
    this.#names = new Derived(() => nameListSteps(source));
  }

  /** Whether the parts are built: a query reading only them pays no build. */
  ready({ projects, names }: VersionParts): boolean {
    return (!names || this.#names.built) && projects.every((project) => this.#rangesOf(project).built);
  }

  /** The parts built in steps between other requests (each built once for all who ask). */
  async prepare({ projects, names }: VersionParts): Promise<void> {
    if (names) await this.#names.prepare();
    for (const project of projects) await this.#rangesOf(project).prepare();
  }

  /** A project's ranges built in the steps of a caller's own walk (the /ask question's). */
  *projectSteps(project: number): Generator<void, void, void> {
    yield* this.#rangesOf(project).steps();
  }

  #rangesOf(project: number): Derived<RangeIndex> {
    let ranges = this.#ranges.get(project);
    if (ranges === undefined) {
      ranges = new Derived(() => projectRangeSteps(this.source, project));
      this.#ranges.set(project, ranges);
    }
    return ranges;
  }

  /** The record's status for a version of a project (its canonical name and other spellings, as name keys). */
  checkProject(position: number, version: string, names: ReadonlySet<string>): RecordVerdict {
    const record = this.#records.get(position);
    if (record === undefined) return UNKNOWN;
    const selects = namedIn(names);
    const named = [...record.affected, ...(record.adpAffected ?? [])].some(selects);
    return checkRecord(record, version, named ? selects : undefined);
  }

  /**
   * The records of a project (by its code in the table) whose status at a version is one asked for, by the
   * project's ranges, and those the ranges leave to checkProject; undefined when the version is not one the
   * ranges answer for.
   */
  findInProject(project: number, version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer | undefined {
    return this.#answers.use(`${project} ${version} ${[...asked].join()}`, () => {
      const answer = this.#rangesOf(project).get().find(version, asked);
      return { value: answer, weight: weightOf(answer) };
    });
  }

  /** The records naming a package, in listing order. */
  packagePositions(key: string): Int32Array {
    return this.#names.get().packages.get(key) ?? EMPTY;
  }

  /** Whether one of the record's products is the package. */
  namesPackage(position: number, key: string): boolean {
    const record = this.#records.get(position);
    return record !== undefined && productsOf(record).some((product) => productPackageKey(product) === key);
  }

  /** The record's status for a version of a package; undefined when it names no such package. */
  checkPackage(position: number, key: string, version: string): RecordVerdict | undefined {
    const record = this.#records.get(position);
    if (record === undefined || !this.namesPackage(position, key)) return undefined;
    return checkRecord(record, version, (product) => productPackageKey(product) === key);
  }

  /** The records that may name a CPE: those naming its vendor and product (or the one given), in listing order. */
  cpePositions(query: CpeAttributes): Int32Array {
    return this.#names.get().cpeNames.get(cpeKey(query[VENDOR]!, query[PRODUCT]!)) ?? EMPTY;
  }

  /**
   * The record's status for a CPE query; undefined when none of its names matches it. Without a version,
   * affected when a name matches (its version attribute too). With one, a product whose name matches on
   * all but the version is affected when one of its names has that very version, else its ranges decide.
   */
  checkCpe(position: number, query: CpeQuery): RecordVerdict | undefined {
    const record = this.#records.get(position);
    if (record === undefined) return undefined;
    const { attributes, version } = query;
    let named = false;
    const verdict = checkRecordBy(record, (product) => {
      const names = (product.cpes ?? []).map((text) => this.#cpe(text)).filter((name) => name !== null && matchesProduct(attributes, name));
      if (names.length === 0) return undefined;
      if (version === undefined) {
        if (!names.some((name) => overlaps(attributes[VERSION]!, name![VERSION]!))) return undefined;
        named = true;
        return { status: 'affected', entry: null, applicable: true };
      }
      named = true;
      const wanted = version.toLowerCase();
      if (names.some((name) => isSpecific(name![VERSION]!) && name![VERSION] === wanted))
        return { status: 'affected', entry: null, applicable: true };
      return checkProduct(product, version);
    });
    return named ? verdict : undefined;
  }

  /** The record's products, for a page that says which range matched. */
  versionsAt(position: number): RecordVersions {
    return this.#records.get(position);
  }

  #cpe(text: string): CpeAttributes | null {
    let name = this.#cpes.get(text);
    if (name === undefined) {
      name = parseRecordCpe(text) ?? null;
      if (this.#cpes.size >= KEPT_CPES) this.#cpes.clear();
      this.#cpes.set(text, name);
    }
    return name;
  }
}

const EMPTY = new Int32Array(0);

/** What an answer kept weighs: its positions, found and in all. */
function weightOf(answer: RangeAnswer | undefined): number {
  return answer === undefined ? 0 : answer.found.length + answer.positions.length;
}

function productsOf(record: CheckedDetails): AffectedProduct[] {
  return [...record.affected, ...(record.adpAffected ?? [])];
}

/** The key of the records naming a vendor and product; `*` for either leaves it out. */
function cpeKey(vendor: string, product: string): string {
  return `${vendor === ANY ? '' : vendor}:${product === ANY ? '' : product}`;
}

/** Positions by key, added in ascending position order (so each list is in listing order, deduplicated). */
class PositionLists {
  readonly #lists = new Map<string, number[]>();

  add(key: string, position: number): void {
    const list = this.#lists.get(key);
    if (list === undefined) this.#lists.set(key, [position]);
    else if (list.at(-1) !== position) list.push(position);
  }

  done(): Map<string, Int32Array> {
    return new Map([...this.#lists].map(([key, list]) => [key, Int32Array.from(list)]));
  }
}

/** What the index is built from: each record's stored details and each project's records. */
export interface VersionSource {
  readonly size: number;
  details(position: number): string | undefined;
  /** A project's records (by its code in the table), in listing order. */
  positionsOf(project: number): Int32Array;
  /** A project's name keys (its canonical name and other spellings), by its code. */
  projectNames(project: number): ReadonlySet<string>;
}

/** A source read from a snapshot's table, texts and project spellings. */
export function snapshotVersionSource(
  table: { readonly size: number; readonly projectNames: readonly string[] },
  details: (position: number) => string | undefined,
  aliases: ReadonlyMap<string, readonly string[]>,
  /** A project's records, by its name. */
  positions: (name: string) => Int32Array,
): VersionSource {
  return {
    size: table.size,
    details,
    positionsOf: (project) => positions(table.projectNames[project]!),
    // Made for each build, not kept: only the build reads them (a set a project, 7,294 at 340,000 records).
    projectNames(project) {
      const name = table.projectNames[project]!;
      return projectNameKeys(name, aliases.get(name) ?? []);
    },
  };
}

/** Which records name each package and CPE. */
interface NameLists {
  /** Positions (in listing order) of the records naming a package, by package key (package-key.ts). */
  readonly packages: ReadonlyMap<string, Int32Array>;
  /** Positions of the records naming a CPE, by `vendor:product`, `vendor:` and `:product`. */
  readonly cpeNames: ReadonlyMap<string, Int32Array>;
}

/** The package and CPE lists, from every record's details, RECORDS_PER_STEP records a step. */
function* nameListSteps(source: VersionSource): Generator<void, NameLists, void> {
  const packages = new PositionLists();
  const cpeNames = new PositionLists();
  // Each CPE name parsed once: the corpus repeats the sample's names (parsing them again was some 7% of the build, by a CPU profile).
  const parsedCpes = new Map<string, CpeAttributes | undefined>();
  for (let position = 0; position < source.size; position++) {
    const json = source.details(position);
    const record = json === undefined ? undefined : recordVersions(JSON.parse(json) as RecordDetails);
    for (const product of record === undefined ? [] : productsOf(record)) {
      const key = productPackageKey(product);
      if (key !== undefined) packages.add(key, position);
      for (const text of product.cpes ?? []) {
        let name = parsedCpes.get(text);
        if (name === undefined && !parsedCpes.has(text)) {
          name = parseRecordCpe(text);
          parsedCpes.set(text, name);
        }
        if (name === undefined) continue;
        for (const key of [cpeKey(name[VENDOR]!, name[PRODUCT]!), cpeKey(name[VENDOR]!, ANY), cpeKey(ANY, name[PRODUCT]!)])
          cpeNames.add(key, position);
      }
    }
    if (position % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
  }
  return { packages: packages.done(), cpeNames: cpeNames.done() };
}

/** A project's ranges, from its own records' details, RECORDS_PER_STEP records a step. */
function* projectRangeSteps(source: VersionSource, project: number): Generator<void, RangeIndex, void> {
  const ranges = new RangeIndexBuilder();
  const names = source.projectNames(project);
  const positions = source.positionsOf(project);
  for (let i = 0; i < positions.length; i++) {
    const json = source.details(positions[i]!);
    ranges.add(positions[i]!, json === undefined ? undefined : recordVersions(JSON.parse(json) as RecordDetails), names);
    if (i % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
  }
  return yield* ranges.done();
}
