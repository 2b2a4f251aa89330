/**
 * Hints name commands as `jobs ...` in the layers that have no context (config, credentials,
 * API errors); shown, they name the tool as it was invoked.
 */
export function renamed(text: string, name: string): string {
  return name === 'jobs' ? text : text.replace(/(^|['`"(]|run:? |: |\| )jobs (?=[a-z-])/g, `$1${name} `);
}
