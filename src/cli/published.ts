/**
 * After a run that changed adverts on the service, adds what succeeded to the record of what was
 * published (core/published/record.ts). The adverts were sent: a record that cannot be written is a
 * warning, never a failure of the run.
 */
import type { Context } from './context.js';
import type { PublishedChange } from '../core/published/record.js';
import type { AdvertDates } from '../core/adverts/dates.js';

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
  whole?: { group: string | undefined },
): PublishedChange {
  const title = payload?.title;
  // A whole advert sent says whether it is one of several places (a partial update does not).
  const sent = whole ? { group: whole.group === undefined ? undefined : own(whole.group) } : {};
  return { reference: own(reference), title: typeof title === 'string' ? own(title.slice(0, 200)) : undefined, ...(dates ? { dates } : {}), ...sent };
}

const own = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
