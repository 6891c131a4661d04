import { useState } from "preact/hooks";
import { del, get, query, type Cluster, type Grant } from "../api";
import { confirmAction } from "../ui/confirm";
import { CursorPager, useCursorPages } from "../ui/cursorPages";
import { GrantsTable } from "../ui/GrantsTable";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { GrantForm } from "./GrantForm";
import { EligibleGrants } from "../access/EligibleGrants";
import { SubjectSelect } from "../ui/SubjectSelect";

export function GrantsScreen() {
  const clusters = useLoad(() => get<Cluster[]>("/api/clusters"), []);
  const [subject, setSubject] = useState("");
  const [cluster, setCluster] = useState("");
  const [revoked, setRevoked] = useState(false);
  // The server filters and pages, 50 at a time, newest first.
  const grants = useCursorPages<Grant>(`/api/grants${query({ subject, cluster, include_revoked: revoked })}`);
  const [failure, setFailure] = useState<string | null>(null);

  const revoke = async (grant: Grant) => {
    const answer = await confirmAction({
      title: "Revocar permiso",
      body: <p><strong>{grant.subject_login}</strong> pierde <code>{grant.tier}</code> en <code>{grant.cluster_id}/{grant.scope}</code>. La próxima reconciliación quita el RBAC del cluster y se cortan las conexiones abiertas que dependían de él.</p>,
      confirmLabel: "Revocar",
      danger: true,
    });
    if (!answer) {
      return;
    }
    setFailure(null);
    try {
      await del(`/api/grants/${encodeURIComponent(grant.id)}`);
      toast("Permiso revocado.");
      grants.reload();
    } catch (error) {
      setFailure(message(error));
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Permisos</h1>
      <p class="lead">Quién puede hacer qué en cada cluster. Klave mantiene el RBAC de los clusters igual a esta lista.</p>
      <GrantForm clusters={clusters.data ?? []} onCreated={() => {
        toast("Permiso concedido.");
        grants.reload();
      }} />
      <section class="card" aria-labelledby="grants-title">
        <h2 id="grants-title">Concedidos</h2>
        <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filtros de permisos">
          <SubjectSelect label="Usuario" name="filter-subject" empty="Todos" value={subject} onChange={setSubject} />
          <label class="field">
            <span>Cluster</span>
            <select value={cluster} onChange={(event) => setCluster(event.currentTarget.value)} name="filter-cluster">
              <option value="">Todos</option>
              {(clusters.data ?? []).map((item) => <option key={item.id} value={item.id}>{item.id}</option>)}
            </select>
          </label>
          <label class="check">
            <input type="checkbox" checked={revoked} onChange={(event) => setRevoked(event.currentTarget.checked)} />
            Incluir revocados
          </label>
        </form>
        {failure && <div class="alert alert-error" role="alert">{failure}</div>}
        <Loads loaded={{ ...grants, data: grants.data?.items }} empty="Ningún permiso coincide con estos filtros.">
          {(list) => <GrantsTable grants={list} showSubject onRevoke={revoke} />}
        </Loads>
        <CursorPager pages={grants} label="Páginas de permisos" />
      </section>
      <EligibleGrants clusters={clusters.data ?? []} />
    </>
  );
}
