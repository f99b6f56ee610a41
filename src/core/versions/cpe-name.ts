// CPE names as the version filters compare them. A query is a CPE 2.3 formatted string
// (`cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*`); records write 2.3 formatted strings and older 2.2 URIs
// (`cpe:/a:redhat:jboss_data_grid:7`). Attributes compare by the CPE name matching rules (NISTIR 7696) for
// whole values: `*` (ANY) overlaps every value, `-` (NA) only itself and ANY, other values by equal text
// (case-insensitive, escapes removed). A name matches a query when no attribute is disjoint. Partial
// wildcards inside a value (`windows_1*`) are refused: each would need a scan of every name.

/** part, vendor, product, version, update, edition, language, sw_edition, target_sw, target_hw, other. */
export type CpeAttributes = readonly string[];

export const ANY = '*';
export const NA = '-';
const ATTRIBUTES = 11;
export const VENDOR = 1;
export const PRODUCT = 2;
export const VERSION = 3;

export class CpeError extends Error {}

/** Components of a formatted string split at unescaped colons, escapes kept. */
function splitFormatted(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[++i]!;
      continue;
    }
    if (c === ':') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** A value as compared: lower case, escapes removed; a bare `*` or `-` is the logical value (empty: ANY). */
function value(raw: string): string {
  return raw === '' ? ANY : raw.replace(/\\(.)/g, '$1').toLowerCase();
}

/** A query: a CPE 2.3 formatted string with 13 components; a CpeError says what is wrong. */
export function parseCpeQuery(text: string): CpeAttributes {
  if (!text.startsWith('cpe:2.3:')) throw new CpeError('a CPE 2.3 formatted string starts with `cpe:2.3:`.');
  const parts = splitFormatted(text);
  if (parts.length !== ATTRIBUTES + 2) {
    throw new CpeError(`a CPE 2.3 formatted string has 13 colon-separated components; this one has ${parts.length}.`);
  }
  const raw = parts.slice(2);
  const attributes = raw.map(value);
  if (!/^[aoh*-]$/.test(attributes[0]!)) throw new CpeError('the part of a CPE name is `a`, `o`, `h` or `*`.');
  for (const component of raw) {
    if (component !== ANY && /[*?]/.test(component.replace(/\\./g, ''))) {
      throw new CpeError('wildcards inside a value (`windows_1*`) are not read: an attribute is `*`, `-` or a whole value.');
    }
  }
  if (attributes[VENDOR] === ANY && attributes[PRODUCT] === ANY)
    throw new CpeError('give a vendor or a product: `*` for both names every CPE.');
  return attributes;
}

/** A record's CPE name, 2.3 formatted or 2.2 URI (missing 2.2 components are ANY); undefined when it is neither. */
export function parseRecordCpe(text: string): CpeAttributes | undefined {
  if (text.startsWith('cpe:2.3:')) {
    const parts = splitFormatted(text);
    return parts.length === ATTRIBUTES + 2 ? parts.slice(2).map(value) : undefined;
  }
  if (!text.startsWith('cpe:/')) return undefined;
  const parts = text.slice(5).split(':');
  if (parts.length > 7) return undefined;
  const attributes = Array.from({ length: ATTRIBUTES }, (_, i) => {
    const raw = parts[i];
    if (raw === undefined) return ANY;
    try {
      return value(decodeURIComponent(raw));
    } catch {
      return value(raw);
    }
  });
  return attributes;
}

/** Whether two attribute values can name one thing: either is ANY, or they are equal. */
export function overlaps(a: string, b: string): boolean {
  return a === ANY || b === ANY || a === b;
}

/** Whether a record's name matches a query on every attribute but the version. */
export function matchesProduct(query: CpeAttributes, name: CpeAttributes): boolean {
  for (let i = 0; i < ATTRIBUTES; i++) if (i !== VERSION && !overlaps(query[i]!, name[i]!)) return false;
  return true;
}

/** Whether a version attribute is a version (not ANY or NA). */
export function isSpecific(attribute: string): boolean {
  return attribute !== ANY && attribute !== NA;
}
