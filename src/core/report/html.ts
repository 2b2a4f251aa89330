/**
 * The report as one self-contained HTML page: inline CSS, inline SVG charts (drawn here, so they
 * show without JavaScript) and an inline script for the sortable table. Nothing is fetched: the
 * Content-Security-Policy forbids every network source. Every text that came from the service or a
 * file (references) is HTML-escaped here, and set with textContent by the script; the data is
 * embedded as JSON with `<` escaped, so no reference can close the script element.
 */
import { groupReports, type AdvertReport, type DayTotals, type ReportModel } from './model.js';

const COLORS = { views: '#2563eb', likes: '#db2777', applications: '#16a34a', applications_unviewed: '#d97706' } as const;
const LABELS = { views: 'Views', likes: 'Likes', applications: 'Applications', applications_unviewed: 'Unviewed applications' } as const;

/**
 * The Content-Security-Policy of every page the tool writes (the report, previews, careers pages):
 * nothing from the network, inline styles, images only as data, and inline scripts only for a page
 * that has its own (the report's table); data blocks (JSON-LD) are not scripts and need none.
 */
export function contentSecurityPolicy(options: { scripts: boolean }): string {
  return `default-src 'none'; style-src 'unsafe-inline'; ${options.scripts ? "script-src 'unsafe-inline'; " : ''}img-src data:; base-uri 'none'; form-action 'none'`;
}

/**
 * The start of every page the tool writes, up to and including `<body>`: the same charset,
 * viewport and policy everywhere. `title` and `extra` are HTML already (each page escapes its own
 * texts its own way); `extra` goes after the title, before the style.
 */
export function pageHead(page: { title: string; css: string; scripts: boolean; meta?: string; extra?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({ scripts: page.scripts })}">
${page.meta ?? ''}<title>${page.title}</title>
${page.extra ?? ''}<style>${page.css}</style>
</head>
<body>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const int = (n: number) => n.toLocaleString('en-US');
const pct = (r: number | null) => (r === null ? '–' : `${(100 * r).toFixed(1)}%`);

export function renderReportHtml(model: ReportModel): string {
  const live = model.adverts.filter((a) => !a.deleted);
  const attention = rankAttention(live);
  const waiting = live.reduce((n, a) => n + a.current.applications_unviewed, 0);
  const deleted = model.adverts.length - live.length;
  const title = `Job adverts report: ${model.service}`;
  return `${pageHead({ title: escapeHtml(title), css: CSS, scripts: true })}<header>
<h1>Job adverts report</h1>
<p class="meta">Service <strong>${escapeHtml(model.service)}</strong> · ${model.adverts.length ? `${day(model.from)} to ${day(model.to)}` : 'no snapshots'} · generated ${escapeHtml(new Date(model.generatedAt).toISOString().replace('T', ' ').slice(0, 16))} UTC</p>
</header>
<main>
<section class="cards" aria-label="Totals">
${card('Adverts', int(live.length), '', deleted > 0 ? `${int(deleted)} deleted` : '')}
${card('Views', int(model.funnel.views))}
${card('Likes', int(model.funnel.likes))}
${card('Applications', int(model.funnel.applications))}
${card('Unviewed applications', int(waiting), waiting > 0 ? 'warn' : '')}
${card('Need attention', int(attention.length), attention.length > 0 ? 'warn' : '')}
</section>
<section id="attention">
<h2>Needs attention first</h2>
${attentionList(attention)}
</section>
${closingSection(model)}<section>
<h2>Adverts</h2>
<div class="tools"><label>Filter <input id="filter" type="search" placeholder="title or reference"></label> <label><input id="only-attention" type="checkbox"> needs attention only</label> <span id="count"></span>
<span class="legend" id="trend-legend" title="Each line is scaled to its own lowest and highest value over the period; hover over a trend for its numbers">Trend: <i class="swatch" style="background:${COLORS.views}"></i>views <i class="swatch" style="background:${COLORS.applications}"></i>applications, each from its lowest to its highest value${model.adverts.length ? ` (${day(model.from)} to ${day(model.to)})` : ''}</span></div>
<noscript><p>The table needs JavaScript; the charts below do not.</p></noscript>
<table id="adverts"><colgroup>${COLUMNS.map(([, , , width]) => `<col style="width:${((100 * width) / TABLE_WIDTH).toFixed(2)}%">`).join('')}</colgroup><thead><tr>${COLUMNS.map(([key, label, cls, , hint]) => `<th data-key="${key}" class="${cls}" tabindex="0" aria-sort="none" title="${escapeHtml(hint)}">${label}</th>`).join('')}</tr></thead><tbody></tbody></table>
<button id="more" type="button" hidden>Show more</button>
</section>
${placesSection(model)}<section>
<h2>Trends</h2>
<p class="note">Each day: the sum over all adverts of each one's latest counters by the end of that day.</p>
<div class="charts">
${(['views', 'likes', 'applications', 'applications_unviewed'] as const).map((k) => totalsChart(model.totals, k)).join('\n')}
</div>
</section>
<section>
<h2>Funnel</h2>
${funnelChart(model.funnel)}
</section>
</main>
<script type="application/json" id="report-data">${embedJson(tableData(model.adverts))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function card(label: string, value: string, cls = '', sub = ''): string {
  return `<div class="card ${cls}"><div class="value">${value}</div><div class="label">${escapeHtml(label)}${sub ? ` <span class="sub">(${escapeHtml(sub)})</span>` : ''}</div></div>`;
}

/** JSON for a script element: `<` escaped so `</script>` or `<!--` in a reference cannot end it (`space`: indented). */
export function embedJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Compact rows for the script: [reference, views, likes, applications, unviewed, like rate, apply
 * rate, +views, +applications, attention, trend views, trend applications, title, deleted, status in a few words].
 */
function tableData(adverts: readonly AdvertReport[]): unknown[] {
  return adverts.map((a) => [
    a.reference,
    a.current.views,
    a.current.likes,
    a.current.applications,
    a.current.applications_unviewed,
    a.likeRate === null ? null : Math.round(a.likeRate * 1000) / 1000,
    a.applicationRate === null ? null : Math.round(a.applicationRate * 1000) / 1000,
    a.change ? a.change.views : null,
    a.change ? a.change.applications : null,
    a.attention.join('; '),
    a.trend.views,
    a.trend.applications,
    a.title ?? null,
    a.deleted ? 1 : 0,
    shortStatus(a),
  ]);
}

/** The status cell: the reasons in a few words (the whole sentence is its tooltip). */
function shortStatus(a: AdvertReport): string {
  if (a.deleted) return 'deleted';
  const words: string[] = [];
  if (a.current.applications_unviewed > 0) words.push(`${int(a.current.applications_unviewed)} unviewed`);
  if (a.attention.length > (a.current.applications_unviewed > 0 ? 1 : 0)) words.push('quiet for a week');
  return words.join(' · ');
}

/** [data key, header, class, width in px (the table fits a 1280 px window), what the header means]. */
const COLUMNS: [string, string, string, number, string][] = [
  ['0', 'Advert', 'text', 256, 'Title and reference'],
  ['10', 'Trend', 'trend', 104, 'Views and applications over the period, each from its lowest to its highest value'],
  ['1', 'Views', 'num', 69, 'Views so far'],
  ['2', 'Likes', 'num', 64, 'Likes so far'],
  ['3', 'Applied', 'num', 81, 'Applications so far'],
  ['4', 'Unviewed', 'num', 96, 'Applications nobody has opened yet'],
  ['5', 'Like %', 'num', 73, 'Like rate: likes / views'],
  ['6', 'Apply %', 'num', 84, 'Application rate: applications / views'],
  ['7', 'Views 7d', 'num', 90, 'New views over the last 7 days'],
  ['8', 'Applied 7d', 'num', 102, 'New applications over the last 7 days'],
  ['9', 'Status', 'text', 213, 'Why the advert needs attention'],
];

/** The columns' widths add up to this: the table's width in a 1280 px window (less the page's margins). */
const TABLE_WIDTH = COLUMNS.reduce((sum, [, , , width]) => sum + width, 0);

const W = 280;
const H = 132;
const PAD = { left: 46, right: 10, top: 10, bottom: 24 };

/** Round numbers for an axis: 0, a middle and a top at or above `max`. */
function niceTop(max: number): number {
  if (max <= 4) return Math.max(1, Math.ceil(max));
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}

function totalsChart(totals: readonly DayTotals[], key: keyof typeof COLORS): string {
  const values = totals.map((t) => t[key]);
  const top = niceTop(Math.max(0, ...values));
  const n = values.length;
  const x = (i: number) => PAD.left + (n <= 1 ? (W - PAD.left - PAD.right) / 2 : (i / (n - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = n > 0 ? `<polygon fill="${COLORS[key]}" fill-opacity="0.12" points="${x(0).toFixed(1)},${y(0)} ${points} ${x(n - 1).toFixed(1)},${y(0)}"/>` : '';
  const last = values[n - 1] ?? 0;
  const ticks = [0, top / 2, top]
    .map(
      (v) =>
        `<line class="grid" x1="${PAD.left}" y1="${y(v).toFixed(1)}" x2="${W - PAD.right}" y2="${y(v).toFixed(1)}"/><text class="tick y" x="${PAD.left - 5}" y="${(y(v) + 3.5).toFixed(1)}" text-anchor="end">${int(v)}</text>`,
    )
    .join('');
  const dates = n
    ? `<text class="tick x" x="${PAD.left}" y="${H - 6}">${day(totals[0]!.day)}</text>${n > 1 ? `<text class="tick x" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${day(totals[n - 1]!.day)}</text>` : ''}`
    : '';
  return `<figure class="chart"><figcaption>${LABELS[key]}, all adverts <strong>${int(last)}</strong></figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${LABELS[key]} per day, from ${n ? day(totals[0]!.day) : '-'} to ${n ? day(totals[n - 1]!.day) : '-'}, 0 to ${int(top)}">
${ticks}<line class="axis" x1="${PAD.left}" y1="${y(0)}" x2="${W - PAD.right}" y2="${y(0)}"/><line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${y(0)}"/>
${dates}
${area}<polyline fill="none" stroke="${COLORS[key]}" stroke-width="2" points="${points}"/>${n ? `<circle cx="${x(n - 1).toFixed(1)}" cy="${y(last).toFixed(1)}" r="3" fill="${COLORS[key]}"/>` : ''}
</svg></figure>`;
}

function funnelChart(f: ReportModel['funnel']): string {
  const steps: [keyof typeof COLORS, number][] = [
    ['views', f.views],
    ['likes', f.likes],
    ['applications', f.applications],
  ];
  const width = 560;
  const max = Math.max(1, f.views);
  const rows = steps
    .map(([key, value], i) => {
      const w = Math.max(2, (value / max) * (width - 200));
      const share = i === 0 ? '' : ` (${pct(f.views === 0 ? null : value / f.views)} of views)`;
      return `<rect x="120" y="${i * 34 + 4}" width="${w.toFixed(1)}" height="26" rx="3" fill="${COLORS[key]}"/><text x="112" y="${i * 34 + 22}" text-anchor="end">${LABELS[key]}</text><text x="${(126 + w).toFixed(1)}" y="${i * 34 + 22}">${int(value)}${share}</text>`;
    })
    .join('');
  return `<svg class="funnel" viewBox="0 0 ${width} 108" width="${width}" height="108" role="img" aria-label="Funnel: ${int(f.views)} views, ${int(f.likes)} likes, ${int(f.applications)} applications">${rows}</svg>`;
}

/** How many adverts the attention list names: a recruiter acts on a few at a time; the table has the rest. */
export const ATTENTION_SHOWN = 5;

/**
 * Adverts that need a look, most urgent first: the most applications waiting unread, then those
 * people see but nobody applies to (most views over the last week first).
 */
export function rankAttention(adverts: readonly AdvertReport[]): AdvertReport[] {
  const quiet = (a: AdvertReport) => (a.current.applications_unviewed === 0 ? (a.change?.views ?? 0) : 0);
  return adverts
    .filter((a) => !a.deleted && a.attention.length > 0)
    .sort((a, b) => b.current.applications_unviewed - a.current.applications_unviewed || quiet(b) - quiet(a) || a.reference.localeCompare(b.reference));
}

/** Title, else the reference; with the reference beside a title. */
function named(a: Pick<AdvertReport, 'reference' | 'title'>): string {
  return `<span class="name">${a.title === undefined ? `<strong>${escapeHtml(a.reference)}</strong>` : `<strong>${escapeHtml(a.title)}</strong> <span class="ref">${escapeHtml(a.reference)}</span>`}</span>`;
}

/** Adverts closing this week (their jobs.closes date), soonest first; nothing when none does. */
function closingSection(model: ReportModel): string {
  if (model.closingThisWeek.length === 0) return '';
  const items = model.closingThisWeek.map((c) => {
    const left = c.days_left === 0 ? 'last day' : c.days_left === 1 ? '1 day left' : `${c.days_left} days left`;
    return `<li>${named({ reference: c.reference, ...(c.title === undefined ? {} : { title: c.title }) })}<span class="why">${left} (closes ${escapeHtml(c.closes)})</span></li>`;
  });
  return `<section id="closing">
<h2>Closing this week</h2>
<ol class="attention">${items.join('')}</ol>
</section>
`;
}

function attentionList(ranked: readonly AdvertReport[]): string {
  if (ranked.length === 0) return '<p class="ok">Nothing waiting: no unviewed applications, and every advert that people see still gets applications.</p>';
  const items = ranked.slice(0, ATTENTION_SHOWN).map((a) => `<li>${named(a)}<span class="why">${escapeHtml(a.attention.join('; '))}</span></li>`);
  const rest = ranked.length - ATTENTION_SHOWN;
  const more = rest > 0 ? `<p class="note">and ${int(rest)} more advert${rest === 1 ? '' : 's'}: tick "needs attention only" in the table.</p>` : '';
  return `<ol class="attention">${items.join('')}</ol>${more}`;
}

const CSS = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}
*,*::before,*::after{box-sizing:border-box}
body{margin:0}header{background:#1e3a8a;color:#fff;padding:14px 24px}header h1{margin:0 0 4px;font-size:22px}.meta{margin:0;opacity:.9}
main{padding:4px 24px 32px;max-width:1280px}h2{font-size:18px;margin:22px 0 8px}.note{color:#64748b;margin:0 0 8px;font-size:13px}
.cards{display:grid;grid-template-columns:repeat(6,minmax(0,1fr));gap:12px;margin-top:16px}.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:10px 14px}
.card .value{font-size:24px;font-weight:600}.card .label{color:#64748b;font-size:13px}.card .sub{white-space:nowrap}.card.warn{border-color:#f59e0b;background:#fffbeb}
.attention{margin:0;padding:0;list-style:none;counter-reset:rank;background:#fff;border:1px solid #f59e0b;border-radius:8px}
.attention li{counter-increment:rank;display:flex;align-items:baseline;gap:8px;padding:6px 12px;border-top:1px solid #fde68a;white-space:nowrap;overflow:hidden}
.attention li:first-child{border-top:0}.attention li::before{content:counter(rank);font-weight:600;color:#b45309;min-width:1.2em}
.attention .name{min-width:0;overflow:hidden;text-overflow:ellipsis}.attention .why{margin-left:auto;flex:none;max-width:55%;color:#b45309;padding-left:16px;overflow:hidden;text-overflow:ellipsis}.ref{color:#64748b;font-size:12px;font-weight:400}.ok{color:#15803d}
.tools{margin-bottom:8px;display:flex;gap:16px;align-items:center;font-size:14px;flex-wrap:wrap}.legend{margin-left:auto;color:#475569;font-size:12px}
.swatch{display:inline-block;width:14px;height:3px;vertical-align:middle;margin:0 4px 0 6px;border-radius:2px}
table{border-collapse:collapse;background:#fff;font-size:13px;width:100%;table-layout:fixed}
th,td{border-bottom:1px solid #e2e8f0;padding:4px 8px;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;height:33px}
th{cursor:pointer;user-select:none;background:#f1f5f9;position:sticky;top:0;font-weight:600;font-size:12px;padding:4px 6px}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
.num{text-align:right;font-variant-numeric:tabular-nums}td.attn{color:#b45309}tr.flag td:first-child{box-shadow:inset 3px 0 #f59e0b}
tr.gone td{color:#94a3b8}td svg{display:block}
.charts{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:12px}.chart{margin:0;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:8px}
.chart svg{width:100%;height:auto;display:block}
@media (max-width:900px){.charts{grid-template-columns:repeat(2,minmax(0,1fr))}.cards{grid-template-columns:repeat(3,minmax(0,1fr))}}
.chart figcaption{font-size:13px;color:#475569;margin-bottom:4px}.axis{stroke:#94a3b8;stroke-width:1}.grid{stroke:#e2e8f0;stroke-width:1}.tick{font-size:10px;fill:#64748b}
.funnel text{font-size:13px;fill:#1f2937}
#more{margin-top:8px}
`;

/**
 * The table: sort by a column (click or Enter), filter, show more. When drawn, sets data-report="ready"
 * and data-render-ms (time since navigation began), which the tests and the benchmark read.
 */
const SCRIPT = `
(function(){
'use strict';
var root=document.documentElement;
window.addEventListener('error',function(e){root.setAttribute('data-report-error',String(e.message||e));});
var rows=JSON.parse(document.getElementById('report-data').textContent);
var body=document.querySelector('#adverts tbody'),heads=document.querySelectorAll('#adverts th');
var filter=document.getElementById('filter'),only=document.getElementById('only-attention'),more=document.getElementById('more'),count=document.getElementById('count');
var NS='http://www.w3.org/2000/svg',PAGE=200,limit=PAGE,key=9,dir=-1;
function fmt(v,i){if(v===null||v===undefined)return '–';if(i===5||i===6)return (v*100).toFixed(1)+'%';if(i===7||i===8)return (v>0?'+':'')+v.toLocaleString('en-US');return typeof v==='number'?v.toLocaleString('en-US'):v;}
function line(svg,values,color){if(values.length===0)return;var min=Math.min.apply(null,values),max=Math.max.apply(null,values),span=max-min||1,n=values.length,pts=[];
if(n===1){var dot=document.createElementNS(NS,'circle');dot.setAttribute('cx','44');dot.setAttribute('cy',color==='${COLORS.views}'?'8':'16');dot.setAttribute('r','2.5');dot.setAttribute('fill',color);svg.appendChild(dot);return;}
for(var i=0;i<n;i++){pts.push((i*88/(n-1)).toFixed(1)+','+(22-(values[i]-min)/span*20).toFixed(1));}
var p=document.createElementNS(NS,'polyline');p.setAttribute('points',pts.join(' '));p.setAttribute('fill','none');p.setAttribute('stroke',color);p.setAttribute('stroke-width','1.5');svg.appendChild(p);}
function range(name,v){if(v.length===0)return name+': none';var lo=Math.min.apply(null,v),hi=Math.max.apply(null,v);return name+' '+lo.toLocaleString('en-US')+' to '+hi.toLocaleString('en-US');}
function spark(r){var svg=document.createElementNS(NS,'svg');svg.setAttribute('viewBox','0 0 88 24');svg.setAttribute('width','88');svg.setAttribute('height','24');
var t=document.createElementNS(NS,'title');t.textContent=range('views',r[10])+'; '+range('applications',r[11]);svg.appendChild(t);
line(svg,r[10],'${COLORS.views}');line(svg,r[11],'${COLORS.applications}');return svg;}
function name(r){return String(r[12]===null?r[0]:r[12]);}
function value(r){var v=r[key];if(key===0)return name(r).toLowerCase();if(key===10)return r[10].length?r[10][r[10].length-1]-r[10][0]:0;if(key===9)return r[13]?-1:v?1:0;return v===null?-Infinity:v;}
function sorted(){var f=filter.value.trim().toLowerCase();var list=rows.filter(function(r){return (!only.checked||r[9])&&(!f||String(r[0]).toLowerCase().indexOf(f)!==-1||(r[12]!==null&&String(r[12]).toLowerCase().indexOf(f)!==-1));});
list.sort(function(a,b){var x=value(a),y=value(b);var c=typeof x==='string'?x.localeCompare(y):(x<y?-1:x>y?1:0);return c*dir||(key===9?b[4]-a[4]:0)||String(a[0]).localeCompare(String(b[0]));});return list;}
function advertCell(td,r){if(r[12]===null){td.textContent=r[0];td.title=r[0];return;}
var b=document.createElement('strong');b.textContent=r[12];var s=document.createElement('span');s.className='ref';s.textContent=' '+r[0];td.appendChild(b);td.appendChild(s);td.title=r[12]+' ('+r[0]+')';}
function draw(){var list=sorted(),frag=document.createDocumentFragment();
for(var i=0;i<list.length&&i<limit;i++){var r=list[i],tr=document.createElement('tr');tr.className=r[13]?'gone':r[9]?'flag':'';
var order=[0,10,1,2,3,4,5,6,7,8,9];for(var j=0;j<order.length;j++){var c=order[j],td=document.createElement('td');
if(c===0)advertCell(td,r);else if(c===10)td.appendChild(spark(r));else if(c===9){td.textContent=r[14];td.title=r[13]?'deleted':r[9];}else td.textContent=fmt(r[c],c);
td.className=c===9?'attn':(c===0||c===10?'':'num');tr.appendChild(td);}frag.appendChild(tr);}
body.replaceChildren(frag);count.textContent=Math.min(limit,list.length).toLocaleString('en-US')+' of '+list.length.toLocaleString('en-US')+' adverts';
more.hidden=list.length<=limit;
for(var h=0;h<heads.length;h++){heads[h].setAttribute('aria-sort',Number(heads[h].dataset.key)===key?(dir>0?'ascending':'descending'):'none');}}
function sortBy(k){if(k===key)dir=-dir;else{key=k;dir=k===0?1:-1;}limit=PAGE;draw();}
for(var h=0;h<heads.length;h++){(function(th){th.addEventListener('click',function(){sortBy(Number(th.dataset.key));});
th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sortBy(Number(th.dataset.key));}});})(heads[h]);}
filter.addEventListener('input',function(){limit=PAGE;draw();});only.addEventListener('change',function(){limit=PAGE;draw();});
more.addEventListener('click',function(){limit+=1000;draw();});
draw();
root.setAttribute('data-render-ms',String(Math.round(performance.now())));root.setAttribute('data-report','ready');
})();
`;

/** Adverts written for several places: each group's places, and their counters summed (none: nothing). */
function placesSection(model: ReportModel): string {
  const groups = groupReports(model);
  if (groups.length === 0) return '';
  const rows = groups.map(
    (g) =>
      `<tr><td><strong>${escapeHtml(g.reference)}</strong> <span class="ref">${g.places.map(escapeHtml).join(', ')}</span></td><td class="num">${int(g.places.length)}</td><td class="num">${int(g.views)}</td><td class="num">${int(g.likes)}</td><td class="num">${int(g.applications)}</td><td class="num">${int(g.applications_unviewed)}</td></tr>`,
  );
  return `<section id="places">
<h2>Adverts for several places</h2>
<table><thead><tr><th>Advert and its places</th><th class="num">Places</th><th class="num">Views</th><th class="num">Likes</th><th class="num">Applications</th><th class="num">Unviewed</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>
`;
}
