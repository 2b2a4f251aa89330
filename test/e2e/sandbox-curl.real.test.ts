/**
 * The sandbox's own instructions work as shown: the startup text's publish line, then its curl
 * line (the real curl), create an application for an advert that exists; so does --help's curl.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, jobsDriven, ROOT } from './helpers.js';

describe('jobs sandbox startup text (built binary, 127.0.0.1)', () => {
  it('the publish and curl lines it prints work as shown, from the repository root', async () => {
    const env = isolatedEnv();
    let checked: { publish: number | null; curl: string; help: string } | undefined;
    let started = false;
    const run = await jobsDriven(['sandbox', '--port', '0'], {
      cwd: ROOT,
      env,
      timeoutMs: 40_000,
      drive: (child, stdout) => {
        if (started || !stdout.includes('Press Ctrl-C')) return;
        started = true;
        void (async () => {
          try {
            const publishLine = /^ {2}JOBS_BASE_URL=(\S+) JOBS_TOKEN=(\S+) \S+ publish (\S+)$/m.exec(stdout)!;
            const published = await jobs(['publish', publishLine[3]!], {
              cwd: ROOT,
              env: { ...env, JOBS_BASE_URL: publishLine[1]!, JOBS_TOKEN: publishLine[2]! },
            });
            const curlLine = /^ {2}curl -s -X POST (\S+) -d '(.+)'$/m.exec(stdout)!;
            const curl = execFileSync('curl', ['-s', '-X', 'POST', curlLine[1]!, '-d', curlLine[2]!], { encoding: 'utf8', timeout: 10_000 });
            // The same call as --help shows it, at this sandbox's port.
            const help = (await jobs(['sandbox', '--help'], { env })).stdout;
            const helpCurl = /\$ curl -s -X POST http:\/\/127\.0\.0\.1:4010(\S+) -d '(.+)'/.exec(help)!;
            const helpAnswer = execFileSync('curl', ['-s', '-X', 'POST', `${publishLine[1]}${helpCurl[1]}`, '-d', helpCurl[2]!], {
              encoding: 'utf8',
              timeout: 10_000,
            });
            checked = { publish: published.code, curl, help: helpAnswer };
          } finally {
            child.kill('SIGINT');
          }
        })();
      },
    });
    expect(run.stdout).toContain(`curl -s -X POST http://127.0.0.1:`);
    expect(checked?.publish).toBe(0);
    expect(JSON.parse(checked!.curl)).toMatchObject({ id: expect.stringMatching(/^app_/) });
    expect(JSON.parse(checked!.help)).toMatchObject({ id: expect.stringMatching(/^app_/) });
  }, 60_000);
});
