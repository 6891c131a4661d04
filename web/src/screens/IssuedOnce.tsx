import { useEffect, useRef } from "preact/hooks";
import type { Issued } from "../api";
import { when } from "../format";
import { useLeaveGuard } from "../ui/leaveGuard";
import { SecretValue } from "../ui/secret";

/** The token and kubeconfig of a credential just issued: Klave shows them this once only. */
export function IssuedOnce({ issued, onDone, returnFocusTo }: {
  issued: Issued;
  onDone: () => void;
  /** The heading focus goes back to once the panel is gone (it must not fall to the page's body). */
  returnFocusTo: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // Leaving while the token is on screen loses it for good: the person is asked first.
  useLeaveGuard("un token y un kubeconfig");
  // Letters with accents stay (portátil, not port-til); only what a file name cannot hold goes.
  const file = `klave-${(issued.name || issued.id).replace(/[^\p{L}\p{N}._-]/gu, "-")}.kubeconfig`;
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
      <p class="muted small">Úsalo así:</p>
      <pre class="commands"><code>{`export KUBECONFIG=$PWD/${file}
kubectl get namespaces
kubectl get pods -n <namespace>`}</code></pre>
      <button type="button" class="button button-primary" onClick={() => {
        onDone();
        requestAnimationFrame(() => document.getElementById(returnFocusTo)?.focus());
      }}>Ya lo he guardado</button>
    </div>
  );
}
