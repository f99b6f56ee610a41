// Text as the importer cleans it: whitespace and invisible characters out, long text cut at a word.

export const ELLIPSIS = '…';
/** Summaries are cut here: a list shows the start of one, a record page the whole description. */
export const SUMMARY_MAX_CHARS = 1000;

/**
 * Collapses every whitespace run (including NBSP, newlines) to one space and trims, and drops invisible
 * format characters (zero-width spaces, bidirectional overrides and isolates): in a name they only hide
 * or reorder what a reader sees.
 */
export function collapseWhitespace(text: string): string {
  // The second replace takes only what is not already one plain space (a run of two or more, or a single
  // other space character): matching every space between words made each a replacement.
  return text
    .replace(/\p{Cf}+/gu, '')
    .replace(/\s{2,}|[^\S ]/gu, ' ')
    .trim();
}

/**
 * A cut at a word boundary may give back at most this share of the room (or a few characters, for a
 * short room): a text whose last space comes early (a short title, then one enormous token) is cut
 * inside the token instead of losing nearly all of it.
 */
const MAX_WORD_BOUNDARY_LOSS = 0.2;
const MIN_WORD_BOUNDARY_LOSS = 30;

/** Cuts text to at most `max` characters (ellipsis included), at a word boundary when one is near. */
export function truncateAtWord(text: string, max: number = SUMMARY_MAX_CHARS): string {
  if (text.length <= max) return text;
  const room = max - ELLIPSIS.length;
  let cut = text.slice(0, room);
  const lastSpace = cut.lastIndexOf(' ');
  if (text[room] === ' ') {
    // The cut already falls on a word boundary.
  } else if (lastSpace > 0 && room - lastSpace <= Math.max(MIN_WORD_BOUNDARY_LOSS, room * MAX_WORD_BOUNDARY_LOSS)) {
    cut = cut.slice(0, lastSpace);
  } else {
    // One enormous "word": hard cut, but never split a surrogate pair.
    const last = cut.charCodeAt(cut.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  }
  return cut.trimEnd() + ELLIPSIS;
}
