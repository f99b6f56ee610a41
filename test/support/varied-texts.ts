// Texts of every kind a writer of texts meets: ASCII, accents, CJK, emoji (4 bytes in UTF-8), empty, and
// two longer than a megabyte (the writers' chunk and the import spool's buffer).
export const MB = 1 << 20;

export const VARIED_TEXTS = ['{"a":1}', '', 'é'.repeat(1000), '漏洞'.repeat(30_000), 'x'.repeat(MB + 7), '😀'.repeat(300_000), '\n'];
