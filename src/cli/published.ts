/**
 * After a run that changed adverts on the service, adds what succeeded to the record of what was
 * published (core/published/record.ts). The adverts were sent: a record that cannot be written is a
 * warning, never a failure of the run.
 */
import type { Context } from './context.js';
import type { PublishedChange } from '../core/published/record.js';

export async function rememberPublished(ctx: Context, changes: readonly PublishedChange[]): Promise<void> {
  if (changes.length === 0) return;
  const [{ writePublished, publishedRecordFile }, { serviceKey }, { sanitize }, { displayPath }] = await Promise.all([
    import('../core/published/record.js'),
    import('../core/sync/service-key.js'),
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
    ctx.io.stderr.write(`${ctx.name}: warning: could not record the published adverts${where} (${sanitize(reason)}); ${ctx.name} stats --all and ${ctx.name} report will not list them\n`);
  }
}

/** The title an advert was sent with, when it has one. */
export function titleOf(payload: Record<string, unknown> | undefined): string | undefined {
  const title = payload?.title;
  return typeof title === 'string' ? title : undefined;
}
