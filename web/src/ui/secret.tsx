// A secret shown once (token, kubeconfig, invitation link): copy and download buttons.
import { useId, useState } from "preact/hooks";

async function copyText(text: string, fallback: HTMLTextAreaElement | HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallback) {
      fallback.select();
      return document.execCommand("copy");
    }
    return false;
  }
}

export function download(filename: string, text: string, type = "application/yaml") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SecretValue({ label, value, multiline = false, rows = 10, filename, testId }: {
  label: string;
  value: string;
  multiline?: boolean;
  /** Lines a multi-line value shows (a long command wraps in a few). */
  rows?: number;
  filename?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  // One id per instance: two secrets whose labels differ only in digits or symbols stay apart.
  const id = `secret-${useId()}`;
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea id={id} readOnly rows={rows} value={value} data-testid={testId} spellcheck={false} />
      ) : (
        <input id={id} type="text" readOnly value={value} data-testid={testId} spellcheck={false} />
      )}
      <div class="actions">
        <button type="button" class="button button-small" onClick={async () => {
          const ok = await copyText(value, document.getElementById(id) as HTMLTextAreaElement | null);
          setCopied(ok);
        }}>
          {copied ? "Copiado" : `Copiar ${label.toLowerCase()}`}
        </button>
        {filename && (
          <button type="button" class="button button-small" onClick={() => download(filename, value)}>
            Descargar {filename}
          </button>
        )}
      </div>
    </div>
  );
}
