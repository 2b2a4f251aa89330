/**
 * The advert schema for a Markdown advert's front matter (adverts/markdown.ts): the same fields,
 * except `job_description`, which is the body below the front matter and may not be given in it.
 * Tools that check front matter against a JSON Schema (Front Matter CMS, remark-lint-frontmatter-schema,
 * Astro-style content collections) take it; plain YAML editors do not look inside a `.md` file.
 */
const BODY_FIELD = 'job_description';

export function frontMatterSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(schema);
  if (typeof copy.$id === 'string') copy.$id = `${copy.$id}:front-matter`;
  copy.title = `${typeof copy.title === 'string' ? copy.title : 'Job advert'}: Markdown front matter`;
  copy.description = `The front matter of a Markdown advert (a .md file): every field of the advert but ${BODY_FIELD}, which is the body below the front matter's closing --- line.`;
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((name) => name !== BODY_FIELD);
  const properties = copy.properties as Record<string, unknown> | undefined;
  // false: a front matter that gives it is refused, as `jobs validate` refuses it (the body is the job description).
  if (properties && BODY_FIELD in properties) properties[BODY_FIELD] = false;
  if (Array.isArray(copy.examples)) {
    copy.examples = copy.examples.map((example: unknown) => {
      if (example === null || typeof example !== 'object') return example;
      const rest = { ...(example as Record<string, unknown>) };
      delete rest[BODY_FIELD];
      return rest;
    });
  }
  return copy;
}
