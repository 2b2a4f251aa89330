// A minimal service stand-in for benchmarks: answers at once (201/200, empty body; statistics for
// GET /jobs/:reference/stats), counts requests,
// and optionally enforces a quota (requests per 1 s window, from the first request) with 429 and
// Retry-After. Loopback only. Usage: node bench/server.mjs [quotaPerSecond]
// Prints its port on stdout; GET /_count returns {"requests": n, "throttled": n}.
import { createServer } from 'node:http';

const quota = Number(process.argv[2] ?? 0);
let requests = 0;
let throttled = 0;
let windowStart = 0;
let used = 0;

const server = createServer((req, res) => {
  if (req.url === '/_count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ requests, throttled }));
    return;
  }
  req.resume();
  req.on('end', () => {
    requests++;
    if (quota > 0) {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        used = 0;
      }
      if (++used > quota) {
        throttled++;
        const reset = Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000));
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(reset) });
        res.end('{"errors":{"base":["quota_exceeded"]}}');
        return;
      }
    }
    const stats = req.method === 'GET' && /^\/jobs\/([^/]+)\/stats$/.exec(req.url);
    if (stats) {
      // Counters that differ per advert, as jobs stats expects them.
      const n = [...stats[1]].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ views: n % 1000, likes: n % 200, applications: n % 40, applications_unviewed: n % 5 }));
      return;
    }
    res.writeHead(req.method === 'POST' && req.url === '/jobs' ? 201 : 200);
    res.end();
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
// Never outlives the benchmark that started it (10 minutes, or JOBS_BENCH_SERVER_MINUTES for --scale runs).
setTimeout(() => process.exit(0), Number(process.env.JOBS_BENCH_SERVER_MINUTES ?? 10) * 60 * 1000).unref();
process.on('SIGTERM', () => process.exit(0));
