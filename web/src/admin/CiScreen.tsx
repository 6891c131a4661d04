import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { del, get, post, type TrustRule, type TrustRules } from "../api";
import { when } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { SecretValue } from "../ui/secret";
import { CardTable } from "../ui/CardTable";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { SubjectSelect } from "../ui/SubjectSelect";
import { fullRefs, workflow } from "./ciWorkflow";

/**
 * CI trust rules (spec 1 §2, §4 "CI and forge"): which repository, ref and environment may trade
 * its job's ID token for a credential of which bot; what a workflow must use; a copyable workflow
 * for the rule being written, and each rule's own behind "Ver workflow".
 */
export function CiScreen() {
  const rules = useLoad(() => get<TrustRules>("/api/ci/trust-rules"), []);
  const [failure, setFailure] = useState<string | null>(null);
  const [draft, setDraft] = useState({ name: "", bot: "", owner: "", repository: "", ref: "", environment: "" });
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await post<TrustRule>("/api/ci/trust-rules", {
        name: draft.name, bot_subject_id: draft.bot, repository_owner_id: Number(draft.owner),
        repository_id: Number(draft.repository), ref: draft.ref, environment: draft.environment,
      });
      toast(`Trust rule «${draft.name}» creada.`);
      setDraft({ name: "", bot: "", owner: "", repository: "", ref: "", environment: "" });
      rules.reload();
    } catch (error) {
      setFailure(message(error, { repository_owner_id: "Id del propietario", repository_id: "Id del repositorio",
        bot_subject_id: "Bot", ref: "Ref", environment: "Entorno", name: "Nombre" }));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (rule: TrustRule) => {
    const answer = await confirmAction({
      title: `Borrar la trust rule «${rule.name}»`,
      body: <p>Los trabajos de CI que coincidían ya no podrán pedir credenciales de {rule.bot_login}. Las credenciales ya emitidas siguen valiendo hasta que caduquen o se revoquen.</p>,
      confirmLabel: "Borrar", danger: true,
    });
    if (!answer) {
      return;
    }
    try {
      await del(`/api/ci/trust-rules/${encodeURIComponent(rule.id)}`);
      toast(`Trust rule «${rule.name}» borrada.`);
      rules.reload();
    } catch (error) {
      setFailure(message(error));
    }
  };

  const field = (key: keyof typeof draft) => (event: Event) =>
    setDraft({ ...draft, [key]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const refSuggestions = fullRefs(draft.ref);

  const toggleWorkflow = (rule: TrustRule) => {
    const next = new Set(shown);
    if (!next.delete(rule.id)) {
      next.add(rule.id);
    }
    setShown(next);
  };

  return (
    <>
      <h1 tabIndex={-1}>CI</h1>
      <p class="lead">Un trabajo de GitHub Actions cambia su token de identidad por una credencial de un bot, sin secretos guardados.</p>
      <Loads loaded={rules}>
        {(view) => (
          <section class="card" aria-labelledby="ci-use-title">
            <h2 id="ci-use-title">Lo que usa un workflow</h2>
            <dl class="facts">
              <dt>Audiencia</dt><dd><code data-testid="ci-audience">{view.audience}</code></dd>
              <dt>Emisor</dt><dd><code>{view.issuer}</code></dd>
              <dt>Duración de la credencial</dt><dd>{view.token_lifetime}</dd>
              <dt>Intercambio</dt><dd><code data-testid="ci-exchange-url">{view.exchange_url}</code></dd>
            </dl>
            <p class="muted small">Este workflow es para la trust rule que escribes abajo; el de cada trust rule creada está en su fila («Ver workflow»).</p>
            <SecretValue label="Workflow" value={workflow(view, draft)} multiline testId="ci-workflow" />
          </section>
        )}
      </Loads>
      <section class="card" aria-labelledby="ci-new-title">
        <h2 id="ci-new-title">Nueva trust rule</h2>
        <p class="muted small">Usa los ids numéricos del propietario y del repositorio (un nombre puede cambiar de manos; un id no):
          <code> gh api repos/PROPIETARIO/REPO --jq '{"{"}owner: .owner.id, repo: .id{"}"}'</code></p>
        <form onSubmit={create} class="form-grid" aria-label="Nueva trust rule">
          <label class="field"><span>Nombre</span>
            <input name="name" required maxLength={200} value={draft.name} onInput={field("name")} /></label>
          <SubjectSelect label="Bot" name="bot" empty="Elige un bot…" kind="bot" enabledOnly required value={draft.bot}
            onChange={(bot) => setDraft({ ...draft, bot })} />
          <label class="field"><span>Id del propietario</span>
            <input name="owner" required inputMode="numeric" pattern="[0-9]+" value={draft.owner} onInput={field("owner")} /></label>
          <label class="field"><span>Id del repositorio</span>
            <input name="repository" required inputMode="numeric" pattern="[0-9]+" value={draft.repository}
              onInput={field("repository")} /></label>
          <label class="field"><span>Ref (vacío: cualquiera)</span>
            <input name="ref" placeholder="refs/heads/main" value={draft.ref} onInput={field("ref")}
              aria-describedby={refSuggestions.length ? "ref-hint" : undefined} /></label>
          <label class="field"><span>Entorno (vacío: cualquiera)</span>
            <input name="environment" placeholder="production" value={draft.environment} onInput={field("environment")} /></label>
          {refSuggestions.length > 0 && (
            <div class="span-all muted small" id="ref-hint" data-testid="ref-hint">
              Un trabajo de Actions siempre lleva el ref completo, así que «{draft.ref.trim()}» no coincidiría nunca.{" "}
              <span class="row-actions">
                {refSuggestions.map((ref) => (
                  <button key={ref} type="button" class="button button-small"
                    onClick={() => setDraft({ ...draft, ref })}>Usar {ref}</button>
                ))}
              </span>
            </div>
          )}
          {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
          <div class="span-all">
            <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Creando…" : "Crear trust rule"}</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="ci-rules-title">
        <h2 id="ci-rules-title">Trust rules</h2>
        <Loads loaded={{ ...rules, data: rules.data?.rules }} empty="Ninguna trust rule todavía.">
          {(list) => (
            <CardTable label="Trust rules" testId="trust-rules">
                <thead>
                  <tr>
                    <th scope="col">Nombre</th><th scope="col">Bot</th><th scope="col">Repositorio</th>
                    <th scope="col">Ref</th><th scope="col">Entorno</th><th scope="col">Alta</th>
                    <th scope="col"><span class="visually-hidden">Acciones</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((rule) => (
                    <Fragment key={rule.id}>
                      <tr data-testid={`rule-${rule.name}`}>
                        <td>{rule.name}</td>
                        <td>{rule.bot_login}</td>
                        <td><code>{rule.repository_owner_id}/{rule.repository_id}</code></td>
                        <td>{rule.ref || <span class="muted">cualquiera</span>}</td>
                        <td>{rule.environment || <span class="muted">cualquiera</span>}</td>
                        <td>{when(rule.created_at)}</td>
                        <td>
                          <div class="row-actions">
                            <button type="button" class="button button-small" onClick={() => toggleWorkflow(rule)}
                              aria-expanded={shown.has(rule.id)} aria-controls={`workflow-${rule.id}`}
                              aria-label={`Ver workflow de la trust rule ${rule.name}`}>Ver workflow</button>
                            <button type="button" class="button button-small button-danger" onClick={() => remove(rule)}
                              aria-label={`Borrar la trust rule ${rule.name}`}>Borrar</button>
                          </div>
                        </td>
                      </tr>
                      {shown.has(rule.id) && rules.data && (
                        <tr id={`workflow-${rule.id}`}>
                          <td colSpan={7}>
                            <SecretValue label={`Workflow de ${rule.name}`} value={workflow(rules.data, rule)} multiline
                              rows={14} testId={`rule-workflow-${rule.name}`} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
            </CardTable>
          )}
        </Loads>
      </section>
    </>
  );
}
