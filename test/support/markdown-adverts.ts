import { advertYaml } from '../commands/harness.js';

/** harness.advertYaml's fields without job_description as front matter, and `body` below it: a Markdown advert. */
export const markdownAdvert = (reference: string, body: string) => `---\n${advertYaml(reference).replace('job_description: Build robots.\n', '')}---\n${body}`;
