import { advertYaml } from '../commands/harness.js';

/** harness.advertYaml's fields without job_description as front matter, and `body` below it: a Markdown advert. */
export const markdownAdvert = (reference: string, body: string) => `---\n${advertYaml(reference).replace('job_description: Build robots.\n', '')}---\n${body}`;

/** Block scalars, colons, quotes, tabs, odd Unicode, and a body that holds --- lines. */
export const HOSTILE = [
  '# yaml-language-server: $schema=../schemas/advert.schema.json',
  '# a comment kept',
  'reference: "HOST-1: the \\"odd\\" one"',
  "title: 'It''s: a title # not a comment'",
  'organization_name: Ørsted – 株式会社 ‮rtl‬ 🚀',
  'company_description: |',
  '  Line one: with a colon',
  '  \tindented with a tab',
  '',
  '  after a blank line',
  'job_description: |',
  '  ## The job',
  '  ---',
  '  key: value that looks like YAML',
  '  ---',
  '  \ttab-led line and trailing spaces   ',
  '  "quoted" and \'single\' and `code` and \\backslash',
  '  zero\u200bwidth and nbsp\u00a0here',
  'salary_text: "50 000: negotiable"',
  'skills: [a, "b, c", "d: e"]',
  'location:',
  '  country: NO # Norway, stays text',
  '  city: "Tromsø"',
  '',
].join('\n');
