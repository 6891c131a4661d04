import { CLUSTER_STATUS } from "../format";

export function ClusterStatus({ status }: { status: string }) {
  const kind = status === "ready" ? "pill-ok" : status === "error" ? "pill-bad" : "pill-off";
  return <span class={`pill ${kind}`} data-testid="cluster-status">{CLUSTER_STATUS[status] ?? status}</span>;
}
