// Packages by package URL (purl): a purl and a record's affected product name one package when they give
// the same key, `<ecosystem>|<name>`. A record names its package by `collectionURL` and `packageName` (the
// CVE JSON 5 way; `packageURL` from format 5.2 on), so each ecosystem the records use says which collection
// URLs are its registry and how its purl spells the name the record writes: npm `@scope/name`, Maven
// `group:artifact`, Go the module path, Composer `vendor/name`. WordPress has no purl type yet; the one
// proposed (package-url/purl-spec#347) is read: `pkg:wordpress/plugin/<slug>`, `pkg:wordpress/theme/<slug>`.
import { PackageURL } from 'packageurl-js';
import type { AffectedProduct } from '../../contract/index.js';

interface Ecosystem {
  /** The key's first part. */
  readonly key: string;
  /** Collection URLs of the registry, without scheme and `www.`: a record's URL is one of them or under one. */
  readonly collections: readonly string[];
  /** The name as the records write it, from a purl's namespace and name. */
  readonly name: (namespace: string | undefined, name: string) => string;
  /** The name as compared: the registry's own equivalence (case, PEP 503's separators). */
  readonly normalize: (name: string) => string;
}

const lower = (name: string) => name.toLowerCase();
const joined = (separator: string) => (namespace: string | undefined, name: string) =>
  namespace === undefined || namespace === '' ? name : `${namespace}${separator}${name}`;

/** The ecosystems by purl type (WordPress by type and namespace). */
const ECOSYSTEMS: Readonly<Record<string, Ecosystem>> = {
  npm: { key: 'npm', collections: ['npmjs.com', 'npmjs.org', 'registry.npmjs.org'], name: joined('/'), normalize: lower },
  pypi: {
    key: 'pypi',
    collections: ['pypi.org', 'pypi.python.org', 'files.pythonhosted.org'],
    name: joined('/'),
    normalize: (name) => name.toLowerCase().replace(/[-_.]+/g, '-'),
  },
  maven: {
    key: 'maven',
    collections: ['repo.maven.apache.org/maven2', 'repo1.maven.org/maven2', 'central.sonatype.com', 'search.maven.org'],
    name: joined(':'),
    normalize: lower,
  },
  golang: { key: 'golang', collections: ['pkg.go.dev', 'proxy.golang.org', 'go.dev'], name: joined('/'), normalize: lower },
  cargo: { key: 'cargo', collections: ['crates.io'], name: joined('/'), normalize: lower },
  nuget: { key: 'nuget', collections: ['nuget.org', 'api.nuget.org'], name: joined('/'), normalize: lower },
  gem: { key: 'gem', collections: ['rubygems.org'], name: joined('/'), normalize: lower },
  composer: { key: 'composer', collections: ['packagist.org', 'repo.packagist.org'], name: joined('/'), normalize: lower },
  'wordpress/plugin': { key: 'wordpress-plugin', collections: ['wordpress.org/plugins'], name: (_, name) => name, normalize: lower },
  'wordpress/theme': { key: 'wordpress-theme', collections: ['wordpress.org/themes'], name: (_, name) => name, normalize: lower },
};

/** The purl types read, for an error message. */
export const PURL_TYPES = ['npm', 'pypi', 'maven', 'golang', 'cargo', 'nuget', 'gem', 'composer', 'wordpress'] as const;

/** A package a purl names: its key, and the version it carries, if any. */
export interface PurlPackage {
  readonly key: string;
  readonly version: string | undefined;
}

/** Why a purl cannot be read; the caller turns it into its 400. */
export class PurlError extends Error {}

function ecosystemOf(type: string, namespace: string | undefined): { ecosystem: Ecosystem; namespace: string | undefined } | undefined {
  if (type !== 'wordpress') {
    const ecosystem = ECOSYSTEMS[type];
    return ecosystem && { ecosystem, namespace };
  }
  const kind = namespace === undefined || namespace === '' ? 'plugin' : namespace.toLowerCase();
  const ecosystem = ECOSYSTEMS[`wordpress/${kind}`];
  return ecosystem && { ecosystem, namespace: undefined };
}

function keyOf(ecosystem: Ecosystem, name: string): string {
  return `${ecosystem.key}|${ecosystem.normalize(name)}`;
}

/** The package a purl names, by packageurl-js; a PurlError for what is no purl or of a type the records do not use. */
export function purlPackage(text: string): PurlPackage {
  let purl: PackageURL;
  try {
    purl = PackageURL.fromString(text);
  } catch (error) {
    throw new PurlError((error as Error).message);
  }
  const found = ecosystemOf(purl.type, purl.namespace ?? undefined);
  if (found === undefined) {
    throw new PurlError(`purl type "${purl.type}" is not one the records name packages in (${PURL_TYPES.join(', ')}).`);
  }
  return { key: keyOf(found.ecosystem, found.ecosystem.name(found.namespace, purl.name)), version: purl.version ?? undefined };
}

/** A collection URL as compared: no scheme, no `www.`, no trailing slash, lower case. */
function collectionPath(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

const BY_COLLECTION: readonly [string, Ecosystem][] = Object.values(ECOSYSTEMS).flatMap((ecosystem) =>
  ecosystem.collections.map((collection) => [collection, ecosystem] as [string, Ecosystem]),
);

/** The package key of a record's product: from its purl when it gives one, else its collection and package name. */
export function productPackageKey(product: Pick<AffectedProduct, 'packageURL' | 'packageName' | 'collectionURL'>): string | undefined {
  if (product.packageURL) {
    try {
      return purlPackage(product.packageURL).key;
    } catch {
      // A record's malformed purl names no package; its collection and name may still.
    }
  }
  const { packageName, collectionURL } = product;
  if (!packageName || !collectionURL) return undefined;
  const path = collectionPath(collectionURL);
  const found = BY_COLLECTION.find(([collection]) => path === collection || path.startsWith(`${collection}/`));
  return found && keyOf(found[1], packageName.trim());
}
