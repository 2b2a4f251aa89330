/**
 * The report as one self-contained HTML page: inline CSS, inline SVG charts (drawn here, so they
 * show without JavaScript) and an inline script for the sortable table. Nothing is fetched: the
 * Content-Security-Policy forbids every network source. Every text that came from the service or a
 * file (references) is HTML-escaped here, and set with textContent by the script; the data is
 * embedded as JSON with `<` escaped, so no reference can close the script element.
 */
import type { AdvertReport, DayTotals, ReportModel } from './model.js';

const COLORS = { views: '#2563eb', likes: '#db2777', applications: '#16a34a', applications_unviewed: '#d97706' } as const;
const LABELS = { views: 'Views', likes: 'Likes', applications: 'Applications', applications_unviewed: 'Unviewed applications' } as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const int = (n: number) => n.toLocaleString('en-US');
const pct = (r: number | null) => (r === null ? '–' : `${(100 * r).toFixed(1)}%`);

export function renderReportHtml(model: ReportModel): string {
  const attention = model.adverts.filter((a) => a.attention.length > 0);
  const waiting = model.adverts.reduce((n, a) => n + a.current.applications_unviewed, 0);
  const title = `Job adverts report: ${model.service}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>Job adverts report</h1>
<p class="meta">Service <strong>${escapeHtml(model.service)}</strong> · ${model.adverts.length ? `${day(model.from)} to ${day(model.to)}` : 'no snapshots'} · generated ${escapeHtml(new Date(model.generatedAt).toISOString().replace('T', ' ').slice(0, 16))} UTC</p>
</header>
<main>
<section class="cards" aria-label="Totals">
${card('Adverts', int(model.adverts.length))}
${card('Views', int(model.funnel.views))}
${card('Likes', int(model.funnel.likes))}
${card('Applications', int(model.funnel.applications))}
${card('Unviewed applications', int(waiting), waiting > 0 ? 'warn' : '')}
${card('Need attention', int(attention.length), attention.length > 0 ? 'warn' : '')}
</section>
<section>
<h2>Trends</h2>
<p class="note">Sum over all adverts of each one's latest counters at the end of each day.</p>
<div class="charts">
${(['views', 'likes', 'applications', 'applications_unviewed'] as const).map((k) => totalsChart(model.totals, k)).join('\n')}
</div>
</section>
<section>
<h2>Funnel</h2>
${funnelChart(model.funnel)}
</section>
<section>
<h2>Needs attention</h2>
${attentionList(attention)}
</section>
<section>
<h2>Adverts</h2>
<div class="tools"><label>Filter <input id="filter" type="search" placeholder="reference"></label> <label><input id="only-attention" type="checkbox"> needs attention only</label> <span id="count"></span></div>
<noscript><p>The table needs JavaScript; the charts above do not.</p></noscript>
<table id="adverts"><thead><tr>${COLUMNS.map(([key, label, cls]) => `<th data-key="${key}" class="${cls}" tabindex="0" aria-sort="none">${label}</th>`).join('')}</tr></thead><tbody></tbody></table>
<button id="more" type="button" hidden>Show more</button>
</section>
</main>
<script type="application/json" id="report-data">${embedJson(tableData(model.adverts))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function card(label: string, value: string, cls = ''): string {
  return `<div class="card ${cls}"><div class="value">${value}</div><div class="label">${escapeHtml(label)}</div></div>`;
}

/** JSON for a script element: `<` escaped so `</script>` or `<!--` in a reference cannot end it. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Compact rows for the script: [reference, views, likes, applications, unviewed, like rate, apply rate, +views, +applications, attention, trend views, trend applications]. */
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
  ]);
}

const COLUMNS: [string, string, string][] = [
  ['0', 'Reference', 'text'],
  ['10', 'Trend (views, applications)', 'chart'],
  ['1', 'Views', 'num'],
  ['2', 'Likes', 'num'],
  ['3', 'Applications', 'num'],
  ['4', 'Unviewed', 'num'],
  ['5', 'Like rate', 'num'],
  ['6', 'Apply rate', 'num'],
  ['7', 'Views, 7 days', 'num'],
  ['8', 'Applications, 7 days', 'num'],
  ['9', 'Needs attention', 'text'],
];

const W = 290;
const H = 120;
const PAD = { left: 44, right: 8, top: 8, bottom: 22 };

function totalsChart(totals: readonly DayTotals[], key: keyof typeof COLORS): string {
  const values = totals.map((t) => t[key]);
  const max = Math.max(1, ...values);
  const n = values.length;
  const x = (i: number) => PAD.left + (n <= 1 ? (W - PAD.left - PAD.right) / 2 : (i / (n - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = n > 0 ? `<polygon fill="${COLORS[key]}" fill-opacity="0.12" points="${x(0).toFixed(1)},${y(0)} ${points} ${x(n - 1).toFixed(1)},${y(0)}"/>` : '';
  const last = values[n - 1] ?? 0;
  return `<figure class="chart"><figcaption>${LABELS[key]} <strong>${int(last)}</strong></figcaption>
<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${LABELS[key]} per day, from ${n ? day(totals[0]!.day) : '-'} to ${n ? day(totals[n - 1]!.day) : '-'}">
<line class="axis" x1="${PAD.left}" y1="${y(0)}" x2="${W - PAD.right}" y2="${y(0)}"/><line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${y(0)}"/>
<text class="tick" x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end">${int(max)}</text><text class="tick" x="${PAD.left - 4}" y="${y(0)}" text-anchor="end">0</text>
${n ? `<text class="tick" x="${PAD.left}" y="${H - 6}">${day(totals[0]!.day)}</text><text class="tick" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${day(totals[n - 1]!.day)}</text>` : ''}
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

const MAX_ATTENTION = 50;

function attentionList(attention: readonly AdvertReport[]): string {
  if (attention.length === 0) return '<p class="ok">Nothing waiting: no unviewed applications, and every advert that people see still gets applications.</p>';
  const sorted = [...attention].sort((a, b) => b.current.applications_unviewed - a.current.applications_unviewed || a.reference.localeCompare(b.reference));
  const items = sorted.slice(0, MAX_ATTENTION).map((a) => `<li><strong>${escapeHtml(a.reference)}</strong>: ${escapeHtml(a.attention.join('; '))}</li>`);
  const more = sorted.length > MAX_ATTENTION ? `<p class="note">and ${int(sorted.length - MAX_ATTENTION)} more: tick "needs attention only" in the table.</p>` : '';
  return `<ul class="attention">${items.join('')}</ul>${more}`;
}

const CSS = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}
body{margin:0}header{background:#1e3a8a;color:#fff;padding:16px 24px}header h1{margin:0 0 4px;font-size:22px}.meta{margin:0;opacity:.9}
main{padding:8px 24px 32px;max-width:1280px}h2{font-size:18px;margin:24px 0 8px}.note{color:#64748b;margin:0 0 8px;font-size:13px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin-top:16px}.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;min-width:130px}
.card .value{font-size:26px;font-weight:600}.card .label{color:#64748b;font-size:13px}.card.warn{border-color:#f59e0b;background:#fffbeb}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{margin:0;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:8px}
.chart figcaption{font-size:13px;color:#475569;margin-bottom:4px}.axis{stroke:#94a3b8;stroke-width:1}.tick{font-size:10px;fill:#64748b}
.funnel text{font-size:13px;fill:#1f2937}.attention{margin:0;padding-left:20px}.attention li{margin:2px 0}.ok{color:#15803d}
.tools{margin-bottom:8px;display:flex;gap:16px;align-items:center;font-size:14px}
table{border-collapse:collapse;background:#fff;font-size:13px;width:100%}th,td{border-bottom:1px solid #e2e8f0;padding:4px 8px;text-align:left;white-space:nowrap}
th{cursor:pointer;user-select:none;background:#f1f5f9;position:sticky;top:0}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
.num{text-align:right}td.attn{white-space:normal;color:#b45309}tr.flag td:first-child{border-left:3px solid #f59e0b}
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
for(var i=0;i<n;i++){pts.push((n===1?60:i*120/(n-1)).toFixed(1)+','+(22-(values[i]-min)/span*20).toFixed(1));}
var p=document.createElementNS(NS,'polyline');p.setAttribute('points',pts.join(' '));p.setAttribute('fill','none');p.setAttribute('stroke',color);p.setAttribute('stroke-width','1.5');svg.appendChild(p);}
function spark(r){var svg=document.createElementNS(NS,'svg');svg.setAttribute('viewBox','0 0 120 24');svg.setAttribute('width','120');svg.setAttribute('height','24');
line(svg,r[10],'${COLORS.views}');line(svg,r[11],'${COLORS.applications}');return svg;}
function value(r){var v=r[key];if(key===10)return r[10].length?r[10][r[10].length-1]-r[10][0]:0;if(key===9)return v?1:0;return v===null?-Infinity:v;}
function sorted(){var f=filter.value.trim().toLowerCase();var list=rows.filter(function(r){return (!only.checked||r[9])&&(!f||String(r[0]).toLowerCase().indexOf(f)!==-1);});
list.sort(function(a,b){var x=value(a),y=value(b);var c=typeof x==='string'?x.localeCompare(y):(x<y?-1:x>y?1:0);return c*dir||(key===9?b[4]-a[4]:0)||String(a[0]).localeCompare(String(b[0]));});return list;}
function draw(){var list=sorted(),frag=document.createDocumentFragment();
for(var i=0;i<list.length&&i<limit;i++){var r=list[i],tr=document.createElement('tr');if(r[9])tr.className='flag';
var order=[0,10,1,2,3,4,5,6,7,8,9];for(var j=0;j<order.length;j++){var c=order[j],td=document.createElement('td');
if(c===10)td.appendChild(spark(r));else td.textContent=fmt(r[c],c);td.className=c===9?'attn':(c===0?'':'num');tr.appendChild(td);}frag.appendChild(tr);}
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
