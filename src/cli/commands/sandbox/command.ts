import type { CommandSetup } from '../../program.js';
import type { RawSandboxFlags } from './run.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export default function sandbox({ program, name, action }: CommandSetup): void {
  program
    .command('sandbox')
    .helpGroup('Local tools:')
    .description('run a local emulator of the Job Advert Service, for trying adverts and pipelines safely')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--host <host>', 'address to bind; keep the loopback default unless you mean to expose it', '127.0.0.1')
    .option('--token <token>', 'a token the sandbox accepts (repeatable; default: sandbox)', collect)
    .option('--data <file>', 'keep the state in this JSON file across restarts (default: in memory)')
    .option('--quota <rate>', "quota per token as <n>/<s|m|h>, e.g. 60/m (a fixed window from the token's first request); past it, 429")
    .option('--latency <ms>', 'delay every service response by this many milliseconds')
    .option('--fail-rate <0..1>', 'answer this share of service requests with a random 500 or 503')
    .option('--seed <n>', 'seed for --fail-rate, so a fault drill fails the same requests every run')
    .option('--max-body <size>', 'largest request body accepted, e.g. 256k or 4m; larger ones get 413 (default 1m)')
    .option('--reset', 'clear the --data file first; alone, clear the --sandbox state, its history and published record, and exit')
    .option('--fast-forward <duration>', 'alone: move the --sandbox clock forward (30d), recording a stats snapshot of each advert per day, and exit')
    .addHelpText(
      'after',
      `
The sandbox answers the service's five endpoints (POST /jobs, PUT and DELETE /jobs/:reference,
GET /jobs/:reference/stats, POST /job_applications/:id/events) with the service's statuses and
error format, validating with the same schemas as jobs. Credentials: "Authorization: Bearer <token>"
or the bare token. Bodies over --max-body get 413, JSON nested deeper than 64 levels 400. Each
advert belongs to the token that created it. Simulated candidates make views, likes and
applications grow over time. Requests are logged on stderr (never a token). With --data, each
change is appended to <file>.journal and folded into <file> as it grows and when the sandbox stops.

Fixture routes under /_sandbox/ (not part of the service; no token needed):
  POST /_sandbox/applications   {"reference": "...", "token"?: "..."} -> 201 {"id": "app_..."}
                                creates a job application for an advert, to post events to
  GET  /_sandbox/requests       requests received: [{method, path, status, body, at}]
  GET  /_sandbox/adverts        stored adverts by client (a short hash of the token), with stats
                                and application ids
  GET  /_sandbox/events         events accepted
  POST /_sandbox/reset          clears everything

Examples:
  $ ${name} sandbox
  $ JOBS_BASE_URL=http://127.0.0.1:4010 JOBS_TOKEN=sandbox ${name} publish examples/
  $ ${name} sandbox --port 0 --data .sandbox.json --quota 30/m
  $ ${name} sandbox --fail-rate 0.2 --seed 7 --latency 300
  $ curl -s -X POST http://127.0.0.1:4010/_sandbox/applications -d '{"reference":"ACME-0042"}'
  $ ${name} sandbox --reset           # forget everything --sandbox runs kept
  $ ${name} sandbox --fast-forward 30d && ${name} --sandbox report   # a month of demo history

--sandbox on any command runs against an embedded sandbox instead (token: sandbox; state in
$XDG_STATE_HOME/jobs/sandbox.json, default ~/.local/state/jobs/sandbox.json).`,
    )
    .action(
      action(async (ctx, flags: RawSandboxFlags & { fastForward?: string }) => {
        if (flags.fastForward !== undefined) {
          const { runFastForward } = await import('./run.js');
          return runFastForward(ctx, flags.fastForward, flags);
        }
        const { runSandbox } = await import('./run.js');
        return runSandbox(ctx, flags);
      }),
    );
}
