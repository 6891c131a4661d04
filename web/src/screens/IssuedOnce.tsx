import { useEffect, useRef } from "preact/hooks";
import type { Issued } from "../api";
import { when } from "../format";
import { SecretValue } from "../ui/secret";

/** The token and kubeconfig of a credential just issued: Klave shows them this once only. */
export function IssuedOnce({ issued, onDone }: { issued: Issued; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // Leaving while the token is on screen loses it for good: the browser asks first.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a text is set; none shows it any more.
      event.returnValue = "El token no se volverá a mostrar.";
      return event.returnValue;
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);
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
      <button type="button" class="button button-primary" onClick={onDone}>Ya lo he guardado</button>
    </div>
  );
}
