export function advertYaml(i: number): string;
export function generateAdverts(dir: string, count: number): string;
