/** Quoting for the generated scripts: every name and description goes through here. */

/** A single-quoted word for bash and zsh: 'it'\''s'. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A single-quoted word for fish, where only \ and ' are special inside quotes. */
export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** A description inside a zsh _arguments spec's brackets, or a _describe item: `[`, `]` and `:` are special. */
export function zshDescription(text: string): string {
  return text.replace(/[\\[\]:]/g, (c) => `\\${c}`);
}
