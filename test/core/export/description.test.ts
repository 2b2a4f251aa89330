import { describe, expect, it } from 'vitest';
import { descriptionHtml, hasText } from '../../../src/core/export/description.js';

describe('the job description as HTML', () => {
  it('Markdown: raw HTML, comments and script are text; javascript:, data: and vbscript: links stay text; no image is fetched', () => {
    const html = descriptionHtml(
      [
        '<script>alert(1)</script>',
        '',
        '<!-- hidden --> <img src=x onerror=alert(2)>',
        '',
        '[a](javascript:alert(3)) [b](JAVASCRIPT:alert(4)) [c](data:text/html,<script>alert(5)</script>) [d](vbscript:x) [e](https://acme.example/jobs)',
        '',
        '![pixel](https://tracker.example/p.gif)',
        '',
        '<a href="javascript:alert(6)">x</a> "quoted" \'single\'',
      ].join('\n'),
      true,
    );
    expect(html).not.toMatch(/<script|<img|<!--|href="(?!https:\/\/)/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;!-- hidden --&gt;');
    expect(html).toContain('[a](javascript:alert(3))');
    expect(html).toContain('<a href="https://acme.example/jobs">e</a>');
    // The image is a link a candidate may follow, never a request the page makes.
    expect(html).toContain('!<a href="https://tracker.example/p.gif">pixel</a>');
    expect([...html.matchAll(/<a /g)]).toHaveLength(2);
  });

  it('plain text: escaped, in paragraphs, line breaks kept; control characters dropped', () => {
    expect(descriptionHtml('a <b> & "c"\r\nd\u0007\u001b[31m\n\n\n  e  ', false)).toBe('<p>a &#60;b&#62; &#38; &#34;c&#34;<br>\nd[31m</p>\n<p>e</p>');
  });

  it('hasText: markup alone shows nothing', () => {
    expect(hasText('<p> </p><br>')).toBe(false);
    expect(hasText('<p>x</p>')).toBe(true);
  });
});
