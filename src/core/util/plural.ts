/** "1 advert", "3 adverts": counts in messages, from the core and the CLI alike. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
