// Requests over time above the audit's rows and on a cluster's page (issue 40, "activity at a
// glance"): how many per minute, hour or day in the chosen range, refusals and errors in another
// colour, drawn from the API's aggregate (GET /api/audit/activity), never from the rows. uPlot (npm,
// pinned) draws it: a small canvas library, no inline style or script a strict CSP would refuse.
// The numbers are said in words beside it too, for whoever cannot see the canvas.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { get, query } from "../api";
import { useLoad } from "./load";

export interface Activity {
  bucket_seconds: number; from: string; to: string;
  buckets: { start: string; requests: number; refused: number; failed: number }[];
}

const UNIT: Record<number, string> = { 60: "minuto", 3600: "hora", 86400: "día" };

function color(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Every bucket of the range, empty ones as zero, so a quiet hour reads as one. */
function series(activity: Activity): uPlot.AlignedData {
  const step = activity.bucket_seconds;
  const first = Math.floor(Date.parse(activity.from) / 1000 / step) * step;
  const last = Math.floor(Date.parse(activity.to) / 1000 / step) * step;
  const byStart = new Map(activity.buckets.map((bucket) => [Date.parse(bucket.start) / 1000, bucket]));
  const xs: number[] = [];
  const ok: number[] = [];
  const problems: number[] = [];
  for (let at = first; at <= last && xs.length < 2000; at += step) {
    const bucket = byStart.get(at);
    xs.push(at);
    ok.push(bucket ? bucket.requests - bucket.refused - bucket.failed : 0);
    problems.push(bucket ? bucket.refused + bucket.failed : 0);
  }
  return [xs, ok, problems];
}

export function summary(activity: Activity): string {
  const total = activity.buckets.reduce((sum, bucket) => sum + bucket.requests, 0);
  const refused = activity.buckets.reduce((sum, bucket) => sum + bucket.refused, 0);
  const failed = activity.buckets.reduce((sum, bucket) => sum + bucket.failed, 0);
  const busiest = activity.buckets.reduce((most, bucket) => Math.max(most, bucket.requests), 0);
  const unit = UNIT[activity.bucket_seconds] ?? `${activity.bucket_seconds} s`;
  return `${total === 1 ? "1 petición" : `${total} peticiones`} en el periodo: ${refused} rechazadas y ${failed} con error; `
    + `como mucho ${busiest} por ${unit}.`;
}

function Chart({ activity }: { activity: Activity }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = host.current;
    if (!target) {
      return;
    }
    const ink = color("--ink", "#17212b");
    const line = color("--line", "#d8dee5");
    const bars = uPlot.paths.bars?.({ size: [0.8, 40], align: 1 });
    const chart = new uPlot({
      width: Math.max(280, target.clientWidth),
      height: 160,
      legend: { show: false },
      cursor: { y: false },
      scales: { x: { time: true } },
      axes: [
        { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line } },
        { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line }, size: 48 },
      ],
      series: [
        {},
        { label: "Peticiones", stroke: color("--brand", "#1f5fbf"), fill: color("--brand", "#1f5fbf"), paths: bars },
        { label: "Rechazadas o con error", stroke: color("--bad", "#b42318"), fill: color("--bad", "#b42318"),
          paths: bars },
      ],
    }, series(activity), target);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, target.clientWidth), height: 160 }));
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [activity]);
  return <div ref={host} class="activity-chart" aria-hidden="true" />;
}

/** The chart for the audit listing's filters (the same names as GET /api/audit takes). */
export function ActivityChart({ filters, label }: { filters: Record<string, string>; label: string }) {
  const key = JSON.stringify(filters);
  const activity = useLoad(() => get<Activity>(`/api/audit/activity${query(filters)}`), [key]);
  if (!activity.data) {
    return null;
  }
  return (
    <figure class="activity" data-testid="activity">
      <figcaption class="muted small">{label}: <span data-testid="activity-summary">{summary(activity.data)}</span>
        <span class="legend"><span class="swatch swatch-ok" aria-hidden="true" /> atendidas
          <span class="swatch swatch-bad" aria-hidden="true" /> rechazadas o con error</span></figcaption>
      <Chart activity={activity.data} />
    </figure>
  );
}
