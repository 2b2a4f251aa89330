/**
 * The job description as HTML, for JSON-LD's `description` and the preview page. A Markdown
 * advert's body is Markdown: rendered by markdown-it with raw HTML off (a `<script>` or a comment
 * in the body is shown as text), no images (a page must fetch nothing), and links only to http(s)
 * and mailto (a `javascript:` link stays text). A YAML advert's description is plain text: escaped,
 * in paragraphs. Control characters are dropped either way (they are no part of a page).
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../report/html.js';

// C0 controls but tab and newline, DEL and C1 controls: not allowed in HTML text.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Advert text made fit for a page: control characters removed, carriage returns dropped. */
export function pageText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** Escaped for HTML text and attribute values. */
export function htmlText(text: string): string {
  return escapeHtml(pageText(text));
}

let markdown: MarkdownIt | undefined;

function renderer(): MarkdownIt {
  if (markdown) return markdown;
  markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  markdown.disable('image');
  markdown.validateLink = (url: string) => /^(https?:|mailto:)/i.test(url.trim());
  return markdown;
}

/** The description as HTML: Markdown rendered (`markdown`), or plain text in paragraphs. */
export function descriptionHtml(text: string, markdown: boolean): string {
  const clean = pageText(text);
  if (markdown) return renderer().render(clean).trim();
  return clean
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** Whether text shows anything: spaces and invisible format characters (U+200B, U+2060, bidi marks) alone do not. */
export function showsText(text: string): boolean {
  return /[^\p{White_Space}\p{Cf}]/u.test(text);
}

/** Whether HTML shows any text (a description of only markup, or of invisible characters, shows nothing). */
export function hasText(html: string): boolean {
  return showsText(html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;/g, ' '));
}
