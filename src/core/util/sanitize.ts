/**
 * Text that comes from outside (the service, file contents echoed back) is shown as data: escape
 * sequences and control characters are removed so a hostile or broken response cannot drive the
 * terminal (move the cursor, rewrite earlier lines, change the title, ...).
 */
// CSI, OSC (terminated by BEL or ST), and other two-character ESC sequences.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 controls but tab and newline, DEL, C1 controls, and bidi overrides that can disguise text.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes escape sequences and control characters; keeps tabs and, if `keepNewlines`, newlines. */
export function sanitize(text: string, keepNewlines = false): string {
  const cleaned = text.replace(ESCAPES, '').replace(CONTROLS, '');
  return keepNewlines ? cleaned : cleaned.replace(/[\n\r]+/g, ' ');
}
