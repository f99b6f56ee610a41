// Text from data inside XML: markup characters escaped, and the characters XML 1.0 does not allow at all
// (C0 controls but tab and line ends, lone surrogates, U+FFFE and U+FFFF) dropped, since no escape can
// carry them and a feed parser stops at the first one. Tab, line feed and carriage return are written as
// character references: a parser reads them raw in an attribute as spaces, and a raw carriage return in
// text as a line feed, while a reference is read back as the character itself.

const NOT_XML_1_0 = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Safe as element content and as a quoted attribute value, and read back as it was. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_1_0, '').replace(/[&<>"'\t\n\r]/g, (c) => ESCAPES[c]!);
}
