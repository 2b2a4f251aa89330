/**
 * Windows by construction (there is no Windows machine here): the path arithmetic runs with
 * path.win32 and must give what a Linux clone gives where the result is shared (the sync state, the
 * GitHub annotations), and the Windows places where it is not (%APPDATA%).
 */
import { posix, win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsFile, defaultUserConfigFile, userConfigDir } from '../../../src/core/config/paths.js';
import { stateFileNamer } from '../../../src/core/sync/state-file-name.js';
import { githubAnnotationOn } from '../../../src/cli/output/formats.js';
import type { Finding } from '../../../src/core/errors/findings.js';

describe('the sync state names files with / on every system', () => {
  it('a nested file under the synced folder is the same string from Windows and from Linux', () => {
    const onWindows = stateFileNamer('C:\\repo\\adverts', 'C:\\repo', win32);
    const onLinux = stateFileNamer('/home/ana/repo/adverts', '/home/ana/repo', posix);
    expect(onWindows('adverts\\teams\\backend\\engineer.yaml')).toBe('teams/backend/engineer.yaml');
    expect(onLinux('adverts/teams/backend/engineer.yaml')).toBe('teams/backend/engineer.yaml');
    expect(onWindows('adverts\\top.yaml')).toBe('top.yaml');
    expect(onLinux('adverts/top.yaml')).toBe('top.yaml');
    // Absolute paths as the walk shows them outside cwd.
    expect(stateFileNamer('D:\\adverts', 'C:\\work', win32)('D:\\adverts\\a\\b.yaml')).toBe('a/b.yaml');
  });

  it('a folder synced from inside it, and a file beside the folder', () => {
    expect(stateFileNamer('C:\\repo\\adverts', 'C:\\repo\\adverts', win32)('x\\y.yaml')).toBe('x/y.yaml');
    expect(stateFileNamer('C:\\repo\\adverts', 'C:\\repo\\adverts', win32)('y.yaml')).toBe('y.yaml');
  });
});

describe('GitHub annotations name files with /', () => {
  const finding = (file: string): Finding => ({
    kind: 'field',
    file,
    line: 3,
    column: 8,
    path: 'title',
    message: 'blank',
    text: 'must not be blank',
    rule: 'blank',
  });

  it('a Windows runner path becomes the repository path', () => {
    expect(githubAnnotationOn(win32.sep, finding('adverts\\team\\a.yaml'))).toMatch(/^::error file=adverts\/team\/a\.yaml,line=3,col=8,title=jobs%3A blank::/);
  });

  it('on Linux a backslash is part of a file name and is kept', () => {
    expect(githubAnnotationOn(posix.sep, finding('adverts/odd\\name.yaml'))).toMatch(/^::error file=adverts\/odd\\name\.yaml,/);
  });
});

describe('config and credentials on Windows live in %APPDATA%\\jobs', () => {
  const env = { USERPROFILE: 'C:\\Users\\ana', APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' };

  it('uses %APPDATA%', () => {
    expect(userConfigDir(env, 'win32')).toBe('C:\\Users\\ana\\AppData\\Roaming\\jobs');
    expect(defaultUserConfigFile(env, 'win32')).toBe('C:\\Users\\ana\\AppData\\Roaming\\jobs\\config.yaml');
    expect(credentialsFile(env, 'win32')).toBe('C:\\Users\\ana\\AppData\\Roaming\\jobs\\credentials.json');
  });

  it('an absolute XDG_CONFIG_HOME still wins; without APPDATA it is the home folder', () => {
    expect(credentialsFile({ ...env, XDG_CONFIG_HOME: 'D:\\cfg' }, 'win32')).toBe('D:\\cfg\\jobs\\credentials.json');
    expect(credentialsFile({ USERPROFILE: 'C:\\Users\\ana' }, 'win32')).toBe('C:\\Users\\ana\\.config\\jobs\\credentials.json');
  });

  it('APPDATA means nothing on Linux and macOS', () => {
    expect(credentialsFile({ HOME: '/home/ana', APPDATA: '/somewhere' }, 'linux')).toBe('/home/ana/.config/jobs/credentials.json');
    expect(credentialsFile({ HOME: '/Users/ana', APPDATA: '/somewhere' }, 'darwin')).toBe('/Users/ana/.config/jobs/credentials.json');
  });
});
