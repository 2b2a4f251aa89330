import type { CommandSetup } from '../../program.js';
import type { JsonldFlags, SiteFlags } from './run.js';

export default function exportCommand({ program, name, action }: CommandSetup): void {
  const command = program
    .command('export')
    .helpGroup('Adverts:')
    .description('write schema.org JobPosting data (JSON-LD) or a static careers site from advert files; nothing is sent')
    .addHelpText(
      'after',
      `
Both read the files sync reads and check them as validate does (an invalid advert: exit 3, nothing
written), then as Google checks a job posting: a missing required property is an error, a missing
recommended one a warning. An advert that is closed (jobs.closes has passed) or not open yet is
left out, and the run says so. See docs/export.md for the mapping.

Examples:
  $ ${name} export jsonld adverts/ > postings.ndjson
  $ ${name} export site adverts/ --out public/careers --site-url https://example.com/careers/`,
    );

  command
    .command('jsonld')
    .description('one schema.org JobPosting per advert and place: NDJSON on stdout, or a .jsonld file each with --out')
    .argument('<paths...>', 'advert files or folders (searched recursively, as validate does)')
    .option('--out <dir>', 'write one <reference>.jsonld file per posting into this folder instead of stdout')
    .option('--force', 'with --out: overwrite files of the same names that jobs did not write')
    .addHelpText(
      'after',
      `
On stdout each line is one JobPosting. With --out, the folder keeps a manifest (.jobs-manifest.json)
of the files jobs wrote: the next export replaces them and removes those of adverts no longer
exported (closed ones); other files in the folder are never touched. employmentType comes from the
config's export.employment_type (contract name or id -> FULL_TIME, PART_TIME, ...).

Examples:
  $ ${name} export jsonld adverts/
  $ ${name} export jsonld adverts/ --out site/jobs-data
  $ ${name} export jsonld adverts/backend-engineer.md --json`,
    )
    .action(action(async (ctx, paths: string[], flags: JsonldFlags) => (await import('./run.js')).runExportJsonld(ctx, paths, flags)));

  command
    .command('site')
    .description('a static careers site: an index of open adverts, a page per advert and place, and sitemap.xml')
    .argument('<dir>', 'the folder of advert files')
    .requiredOption('--out <folder>', 'the folder to write the site into')
    .option('--site-url <url>', "where the folder will be served (absolute, for sitemap.xml); default: the config's export.site_url")
    .option('--title <text>', 'the heading of the index page', 'Open positions')
    .option('--force', 'overwrite files of the same names that jobs did not write')
    .addHelpText(
      'after',
      `
Each page is what jobs preview shows, with the advert's JSON-LD in it. sitemap.xml lists the index
and every page, with lastmod from when each advert was last published (the record publish and sync
keep). The folder keeps a manifest (.jobs-manifest.json) of the files jobs wrote: a page whose
advert has closed is removed by the next export, and files of your own there are never touched.

Examples:
  $ ${name} export site adverts/ --out public/careers --site-url https://example.com/careers/
  $ ${name} export site adverts/ --out public/careers --title "Join ACME" --json`,
    )
    .action(action(async (ctx, dir: string, flags: SiteFlags) => (await import('./run.js')).runExportSite(ctx, dir, flags)));
}
