/**
 * How the sync state names an advert's file: relative to the synced folder, with `/` between the
 * parts on every system, so a state committed from a Windows clone and from a Linux clone is the same
 * file and does not churn. `path` is node:path's (path.win32 in tests).
 */
import nodePath from 'node:path';

type PathModule = Pick<typeof nodePath, 'sep' | 'relative' | 'resolve'>;

/**
 * `shown` is the file as the walk shows it (relative to cwd, or absolute); the folder arithmetic is
 * done once per folder, not per advert.
 */
export function stateFileNamer(root: string, cwd: string, path: PathModule = nodePath): (shown: string) => string {
  const folders = new Map<string, string>();
  return (shown) => {
    const cut = shown.lastIndexOf(path.sep);
    const at = cut < 0 ? '.' : shown.slice(0, cut + 1);
    let rel = folders.get(at);
    if (rel === undefined) folders.set(at, (rel = path.relative(root, path.resolve(cwd, at)).split(path.sep).join('/')));
    return rel === '' ? shown.slice(cut + 1) : `${rel}/${shown.slice(cut + 1)}`;
  };
}
