/**
 * The page a candidate sees for one advert (one place): title, company, place, pay, the
 * description rendered, the recruiter's contact and the closing date, with the advert's JSON-LD in
 * its head, so the page is also what a careers site can serve as it is. One self-contained file:
 * no script, nothing fetched (the report's Content-Security-Policy, without scripts). Every text
 * from the advert is escaped; the JSON-LD is embedded with `<` escaped, so no text can end its
 * script element.
 */
import { embedJson, escapeHtml, pageHead } from '../report/html.js';
import { dayOf } from '../adverts/dates.js';
import { descriptionHtml, htmlText } from './description.js';
import type { Pay } from './facts.js';
import type { ExportItem } from './read-postings.js';

const PER = { hour: 'per hour', day: 'per day', week: 'per week', month: 'per month', year: 'per year' } as const;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** "USD 120,000–150,000 per year", "from EUR 3,000 per month", "NOK 600 per hour". */
export function payText(pay: Pay): string {
  const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  const amount =
    pay.max === undefined
      ? `from ${pay.currency} ${n(pay.min)}`
      : pay.max === pay.min
        ? `${pay.currency} ${n(pay.min)}`
        : `${pay.currency} ${n(pay.min)}–${n(pay.max)}`;
  return `${amount} ${PER[pay.per]}`;
}

/** The pay as a candidate reads it: the structured pay, else the advert's salary_text. */
export function shownPay(item: Pick<ExportItem, 'facts' | 'payload' | 'placeholderPay'>): string | undefined {
  if (item.facts.pay && !item.placeholderPay) return payText(item.facts.pay);
  return text(item.payload.salary_text);
}

/** "Austin, TX, US", or "Remote (from US-CO, CA)". */
export function shownPlace(item: Pick<ExportItem, 'facts' | 'payload'>): string {
  if (item.facts.remote) return `Remote${item.facts.remote.from.length ? ` (from ${item.facts.remote.from.join(', ')})` : ''}`;
  const l = obj(item.payload.location);
  return [text(l.city), text(l.state), text(l.country)].filter((p) => p !== undefined).join(', ');
}

/** "31 December 2026". */
function longDate(date: string): string {
  const day = dayOf(date);
  return day === undefined ? date : new Date(day * 86_400_000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export interface PageOptions {
  /** A link back to the site's index (careers site pages). */
  index?: string;
  /** The note at the top of a preview ("what candidates see"); none on a site page. */
  preview?: boolean;
}

export function advertPage(item: ExportItem, options: PageOptions = {}): string {
  const a = item.payload;
  const title = text(a.title) ?? item.reference;
  const company = text(a.organization_name) ?? '';
  const pay = shownPay(item);
  const place = shownPlace(item);
  const recruiter = obj(a.recruiter);
  const name = [text(recruiter.first_name), text(recruiter.last_name)].filter((p) => p !== undefined).join(' ');
  const email = text(recruiter.email);
  const phone = text(recruiter.phone);
  const about = text(a.company_description);
  const closes = item.dates?.closes;
  const facts = [
    place ? `<li><span class="k">Place</span> ${htmlText(place)}</li>` : '',
    pay ? `<li class="pay"><span class="k">Pay</span> <strong>${htmlText(pay)}</strong></li>` : '',
    closes ? `<li><span class="k">Apply by</span> ${htmlText(longDate(closes))}</li>` : '',
  ].join('');
  const contact = [
    name ? `<p>${htmlText(name)}${text(recruiter.organization_name) ? `, ${htmlText(text(recruiter.organization_name)!)}` : ''}</p>` : '',
    // The schema has checked it is an e-mail address; escaped all the same.
    email ? `<p><a href="mailto:${escapeHtml(encodeURI(email))}">${htmlText(email)}</a></p>` : '',
    phone ? `<p>${htmlText(phone)}</p>` : '',
  ].join('');
  return `${pageHead({
    title: htmlText(`${title}${company ? ` – ${company}` : ''}`),
    css: CSS,
    scripts: false,
    meta: '<meta name="referrer" content="no-referrer">\n',
    extra: `<script type="application/ld+json">${embedJson(item.posting)}</script>\n`,
  })}${options.preview ? `<p class="preview">Preview of ${htmlText(item.reference)}: what candidates see. Written by jobs preview from ${htmlText(item.file)}.</p>\n` : ''}${options.index ? `<nav><a href="${escapeHtml(options.index)}">All jobs</a></nav>\n` : ''}<main>
<header>
<h1>${htmlText(title)}</h1>
${company ? `<p class="company">${htmlText(company)}</p>` : ''}
<ul class="facts">${facts}</ul>
</header>
<section class="description">
${item.posting.description ?? ''}
</section>
${about ? `<section><h2>About ${htmlText(company || 'the company')}</h2>\n${descriptionHtml(about, false)}\n</section>\n` : ''}${contact ? `<section class="contact"><h2>Contact</h2>\n${contact}\n</section>\n` : ''}</main>
</body>
</html>
`;
}

export const CSS = `*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
main,nav,.preview{max-width:46rem;margin:0 auto;padding:0 1rem}
main{padding-bottom:3rem}
main *{overflow-wrap:anywhere}
.preview{margin:0 auto;padding:.5rem 1rem;font-size:.85rem;color:#57606a;background:#f6f8fa;max-width:none}
nav{padding-top:1rem}
header{padding:1.25rem 0 .75rem;border-bottom:1px solid #d0d7de}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .25rem}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem}
.company{margin:0 0 .75rem;font-size:1.05rem;color:#57606a}
.facts{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1.5rem}
.facts .k{display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:#57606a}
.pay strong{font-size:1.05rem}
.description{padding-top:.5rem}
pre,code{white-space:pre-wrap;overflow-wrap:anywhere}
table{display:block;max-width:100%;overflow-x:auto}
a{color:#0969da}
ul.jobs{list-style:none;padding:0}
ul.jobs li{padding:.75rem 0;border-bottom:1px solid #d0d7de}
ul.jobs .meta{display:block;color:#57606a;font-size:.9rem}`;
