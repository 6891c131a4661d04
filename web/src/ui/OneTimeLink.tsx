// A link Klave shows this once (an invitation, a reset or activation link): brought into view and
// focused when it appears — it may be far above the row whose button made it — and guarded
// against leaving while it is on screen.
import { useEffect, useRef } from "preact/hooks";
import { when } from "../format";
import { useLeaveGuard } from "./leaveGuard";
import { SecretValue } from "./secret";

export interface OneTimeLinkValue { title: string; login: string; link: string; expires: string }

export function OneTimeLink({ value, onDone }: { value: OneTimeLinkValue; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLeaveGuard("un enlace de un solo uso");
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [value.link]);
  return (
    <section class="card" aria-labelledby="link-title" data-testid="one-time-link">
      <h2 id="link-title" ref={heading} tabIndex={-1}>{value.title} de {value.login}</h2>
      <div class="alert alert-warning" role="alert">
        Este enlace solo se muestra ahora. Cópialo y envíaselo a {value.login} por un canal de confianza.
        Caduca el {when(value.expires)}.
      </div>
      <SecretValue label="Enlace" value={value.link} testId="one-time-link-value" />
      <button type="button" class="button" onClick={onDone}>Ya lo he enviado</button>
    </section>
  );
}
