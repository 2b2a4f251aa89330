/** Statistics as an aligned table (with rates) or JSON. */
import type { Stats } from '../api/client.js';
import type { Context } from '../context.js';
import type { JobsError } from '../errors/failures.js';
import { sanitize } from './sanitize.js';
import { paint } from './summary.js';

export type StatsResult = { reference: string; stats: Stats } | { reference: string; error: JobsError };

const rate = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

export function renderStats(ctx: Context, results: readonly StatsResult[]): void {
  if (ctx.globals.output === 'json') {
    ctx.io.stdout.write(
      `${JSON.stringify({
        stats: results.map((r) => ('stats' in r ? { reference: r.reference, ...r.stats } : { reference: r.reference, error: { message: r.error.message, exit_code: r.error.exitCode } })),
      })}\n`,
    );
    return;
  }
  const header = ['REFERENCE', 'VIEWS', 'LIKES', 'APPLICATIONS', 'UNVIEWED', 'LIKE RATE', 'APPLY RATE'];
  const rows = results.flatMap((r) =>
    'stats' in r
      ? [[sanitize(r.reference), ...[r.stats.views, r.stats.likes, r.stats.applications, r.stats.applications_unviewed].map(String), rate(r.stats.likes, r.stats.views), rate(r.stats.applications, r.stats.views)]]
      : [],
  );
  const out = ctx.io.stdout;
  if (rows.length > 0) {
    // reduce, not Math.max(...rows): `stats --all` may list more references than a call takes arguments.
    const widths = header.map((h, i) => rows.reduce((width, row) => Math.max(width, row[i]!.length), h.length));
    const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
    out.write(`${paint(ctx, out).bold(line(header))}\n`);
    for (const row of rows) out.write(`${line(row)}\n`);
  }
  const c = paint(ctx, ctx.io.stderr);
  for (const r of results) if ('error' in r) ctx.io.stderr.write(`${c.red('✖')} ${sanitize(r.reference)}: ${sanitize(r.error.message)}\n`);
}
