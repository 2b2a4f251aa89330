/**
 * Promise-shaped file reads done synchronously. A CLI reads a handful of small files before it can
 * do anything, and node:fs/promises alone (with the stream and readline modules it pulls in) costs
 * more at start-up than these reads; errors still arrive as rejections, as with fs/promises.
 */
import { readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';

export async function readFile(path: string, encoding: 'utf8'): Promise<string> {
  return readFileSync(path, encoding);
}

export async function stat(path: string): Promise<Stats> {
  return statSync(path);
}

export async function readdir(path: string): Promise<string[]>;
export async function readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
export async function readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | Dirent[]> {
  return options ? readdirSync(path, options) : readdirSync(path);
}
