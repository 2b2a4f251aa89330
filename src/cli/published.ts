/**
 * After a run that changed adverts on the service, adds what succeeded to the record of what was
 * published (core/published/record.ts). The adverts were sent: a record that cannot be written is a
 * warning, never a failure of the run.
 */
import type { Context } from './context.js';
import type { PublishedChange } from '../core/published/record.js';
import type { AdvertDates } from '../core/adverts/dates.js';
import type { OwnerConflict } from '../core/published/owners.js';

export async function rememberPublished(ctx: Context, changes: readonly PublishedChange[]): Promise<void> {
  if (changes.length === 0) return;
  const [{ writePublished, publishedRecordFile }, { serviceKey }, { sanitize }, { displayPath }] = await Promise.all([
    import('../core/published/record.js'),
    import('../core/config/service-key.js'),
    import('../core/util/sanitize.js'),
    import('../core/config/paths.js'),
  ]);
  let service = '';
  try {
    service = serviceKey(ctx.globals.sandbox, await ctx.config());
    await writePublished(ctx.env, service, changes);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const where = service ? ` in ${displayPath(publishedRecordFile(ctx.env, service), ctx.cwd, ctx.env)}` : '';
    ctx.io.stderr.write(
      `${ctx.name}: warning: could not record the published adverts${where} (${sanitize(reason)}); ${ctx.name} stats --all and ${ctx.name} report will not list them\n`,
    );
  }
}

/**
 * An advert that was sent, as the record keeps it: its reference and title copied into strings of
 * their own. A string cut from a file's text by the YAML reader can keep that whole text alive, and
 * a run of 6,000 adverts would then hold every file until the end (a 32 MB heap ran out).
 */
export function sentAdvert(
  reference: string,
  payload: Record<string, unknown> | undefined,
  dates?: AdvertDates,
  whole?: { group: string | undefined; file: string | undefined },
): PublishedChange {
  const title = payload?.title;
  // A whole advert sent says whether it is one of several places, and which file holds it (a partial update does not).
  const sent = whole ? { group: whole.group === undefined ? undefined : own(whole.group), file: whole.file === undefined ? undefined : own(whole.file) } : {};
  return { reference: own(reference), title: typeof title === 'string' ? own(title.slice(0, 200)) : undefined, ...(dates ? { dates } : {}), ...sent };
}

const own = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * Before publish or sync sends adverts whose reference was last published from another file with
 * another title (core/published/owners.ts): each is named on stderr, then the run goes on with
 * --yes, asks at a terminal (no: exit 9), and is refused without one (exit 2). A dry run only warns.
 * Nothing has been sent when this is called.
 */
export async function confirmOwners(
  ctx: Context,
  conflicts: readonly OwnerConflict[],
  options: { yes: boolean | undefined; dryRun: boolean | undefined; command: string },
): Promise<void> {
  if (conflicts.length === 0) return;
  const [{ sanitize }, { displayPath }, { plural }, { canPrompt }, errors] = await Promise.all([
    import('../core/util/sanitize.js'),
    import('../core/config/paths.js'),
    import('../core/util/plural.js'),
    import('./context.js'),
    import('../core/errors/failures.js'),
  ]);
  const quoted = (title: string | undefined) => (title === undefined ? 'no title' : JSON.stringify(sanitize(title)));
  for (const c of conflicts)
    ctx.io.stderr.write(
      `${ctx.name}: warning: ${sanitize(c.source)} would replace ${sanitize(c.reference)} on the service: it was last published from ` +
        `${sanitize(displayPath(c.recordedFile, ctx.cwd, ctx.env))} as ${quoted(c.recordedTitle)}, and this advert is ${quoted(c.title)}\n`,
    );
  if (options.dryRun || options.yes) return;
  const adverts = plural(conflicts.length, 'advert');
  const fix = `give ${conflicts.length === 1 ? 'the new advert a reference of its own' : 'each new advert a reference of its own'}, or pass --yes to replace ${conflicts.length === 1 ? 'it' : 'them'} (${options.command} --yes)`;
  if (!canPrompt(ctx))
    throw new errors.UsageError(`refusing to replace ${adverts} published from another file without confirmation; nothing was sent`, { details: [fix] });
  const { confirm } = await import('./output/prompt.js');
  const yes = await confirm(ctx, `Replace ${adverts} published from another file? The adverts on the service are overwritten.`);
  if (ctx.signal.aborted) throw new errors.CancelledError('interrupted; nothing was sent');
  if (!yes) throw new errors.DeclinedError(`nothing was sent: ${fix}`);
}
