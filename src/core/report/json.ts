/** The report's JSON shape (documented in docs/stats-and-report.md): snake_case, ISO times, like `jobs stats --json`. */
import { groupReports, type ReportModel } from './model.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function reportJson(model: ReportModel, file: string | undefined): Record<string, unknown> {
  return {
    file: file ?? null,
    service: model.service,
    generated_at: iso(model.generatedAt),
    from: model.adverts.length ? iso(model.from) : null,
    to: model.adverts.length ? iso(model.to) : null,
    funnel: model.funnel,
    needs_attention: model.adverts.filter((a) => a.attention.length > 0).map((a) => ({ reference: a.reference, title: a.title ?? null, reasons: a.attention })),
    closing_this_week: model.closingThisWeek.map((c) => ({ reference: c.reference, title: c.title ?? null, closes: c.closes, days_left: c.days_left })),
    ...(model.adverts.some((a) => a.group !== undefined) ? { groups: groupReports(model) } : {}),
    totals: model.totals.map((t) => ({
      day: iso(t.day).slice(0, 10),
      views: t.views,
      likes: t.likes,
      applications: t.applications,
      applications_unviewed: t.applications_unviewed,
    })),
    adverts: model.adverts.map((a) => ({
      reference: a.reference,
      title: a.title ?? null,
      ...(a.group === undefined ? {} : { group: a.group }),
      deleted: Boolean(a.deleted),
      ...a.current,
      like_rate: a.likeRate,
      application_rate: a.applicationRate,
      change: a.change ? { ...a.change, since: iso(a.change.since) } : null,
      needs_attention: a.attention,
      ...(a.closes === undefined ? {} : { closes: a.closes, days_left: a.daysLeft }),
      snapshots: a.snapshots,
      first: iso(a.first),
      last: iso(a.last),
      trend: a.trend.at.map((at, i) => ({ at: iso(at), views: a.trend.views[i], likes: a.trend.likes[i], applications: a.trend.applications[i] })),
    })),
  };
}
