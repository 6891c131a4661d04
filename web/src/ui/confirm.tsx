// The confirmation asked before every destructive action: a modal <dialog> (focus stays inside,
// Escape cancels, focus returns to the button that opened it).
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

export interface ConfirmRequest {
  title: string;
  body: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  /** When set, the dialog asks for an optional text (e.g. the reason of a revocation). */
  reasonLabel?: string;
}

interface Pending extends ConfirmRequest { resolve: (answer: { reason: string } | null) => void }

let show: (pending: Pending) => void = () => {};

/** Asks; resolves with {reason} when confirmed, null when cancelled. */
export function confirmAction(request: ConfirmRequest): Promise<{ reason: string } | null> {
  return new Promise((resolve) => show({ ...request, resolve }));
}

export function ConfirmHost() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState("");
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    show = (request) => {
      opener.current = document.activeElement;
      setReason("");
      setPending(request);
    };
  }, []);

  useEffect(() => {
    if (pending && dialog.current && !dialog.current.open) {
      dialog.current.showModal();
      (pending.reasonLabel ? dialog.current.querySelector<HTMLInputElement>("input") : cancel.current)?.focus();
    }
  }, [pending]);

  const close = (answer: { reason: string } | null) => {
    dialog.current?.close();
    pending?.resolve(answer);
    setPending(null);
    (opener.current as HTMLElement | null)?.focus?.();
  };

  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="confirm-title" onCancel={(event) => {
      event.preventDefault();
      close(null);
    }}>
      {pending && (
        <form method="dialog" onSubmit={(event) => {
          event.preventDefault();
          close({ reason });
        }}>
          <h2 id="confirm-title">{pending.title}</h2>
          <div class="dialog-body">{pending.body}</div>
          {pending.reasonLabel && (
            <label class="field">
              <span>{pending.reasonLabel}</span>
              <input type="text" value={reason} maxLength={500} onInput={(event) => setReason(event.currentTarget.value)} />
            </label>
          )}
          <div class="actions">
            <button type="button" class="button" ref={cancel} onClick={() => close(null)}>Cancelar</button>
            <button type="submit" class={pending.danger ? "button button-danger" : "button button-primary"}>
              {pending.confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
