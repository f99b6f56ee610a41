// Text built by `+` or a template is a tree of the pieces (V8's cons strings), and stays one when it is
// written: each write of a text that holds it (a response's head, a log line) walks the tree again, at about
// a hundred instructions a piece. A constant used at every request is made flat once, here.

/** `text` as one flat string (a copy made through a buffer; text from `+` is a tree of pieces otherwise). */
export function flatText(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
