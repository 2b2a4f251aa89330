export function advertYaml(i: number): string;
export function realisticAdvertYaml(i: number, options?: { bullets?: boolean; pay?: boolean; place?: [string, string] }): string;
export function generateAdverts(
  dir: string,
  count: number,
  options?: { realistic?: boolean; bullets?: boolean; pay?: boolean; place?: [string, string] },
): string;
