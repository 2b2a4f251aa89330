export function advertYaml(i: number): string;
export function realisticAdvertYaml(i: number, options?: { bullets?: boolean }): string;
export function generateAdverts(dir: string, count: number, options?: { realistic?: boolean; bullets?: boolean }): string;
