import { useEffect, useRef } from "preact/hooks";
import type { Issued } from "../api";
import { when } from "../format";
import { SecretValue } from "../ui/secret";

/** The token and kubeconfig of a credential just issued: Klave shows them this once only. */
export function IssuedOnce({ issued, onDone }: { issued: Issued; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const file = `klave-${(issued.name || issued.id).replace(/[^a-zA-Z0-9._-]/g, "-")}.kubeconfig`;
  return (
    <div class="issued" data-testid="issued-credential">
      <h3 ref={heading} tabIndex={-1}>Credencial emitida</h3>
      <div class="alert alert-warning" role="alert">
        <strong>Guárdala ahora.</strong> Klave no vuelve a mostrar este token ni este kubeconfig: solo guarda su huella.
        Si lo pierdes, emite otra credencial y revoca esta.
      </div>
      <p>Válida hasta {when(issued.expires_at)} en {issued.clusters.length ? issued.clusters.join(", ") : "ningún cluster todavía"}.</p>
      <SecretValue label="Token" value={issued.token} testId="issued-token" />
      <SecretValue label="Kubeconfig" value={issued.kubeconfig} multiline filename={file} testId="issued-kubeconfig" />
      <p class="muted small">Úsalo con <code>KUBECONFIG={file} kubectl get pods</code>.</p>
      <button type="button" class="button button-primary" onClick={onDone}>Ya lo he guardado</button>
    </div>
  );
}
