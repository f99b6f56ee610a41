// Text from data inside XML: markup characters escaped, and the characters XML 1.0 does not allow at all
// (C0 controls but tab and line ends, lone surrogates, U+FFFE and U+FFFF) dropped, since no escape can
// carry them and a feed parser stops at the first one.

const NOT_XML_1_0 = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Safe as element content and as a quoted attribute value. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_1_0, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
