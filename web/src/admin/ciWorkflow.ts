// The GitHub Actions job a trust rule admits (spec 1 §2 "CI trust rule", §4 "CI exchange rules"),
// with what this Klave expects filled in (README "CI jobs").
import type { TrustRules } from "../api";

/** What a trust rule requires of a job; an empty value admits any. */
export interface JobNeeds {
  ref: string;
  environment: string;
}

/** Kinds of ref that someone may write without the leading refs/. */
const SHORT_KINDS = ["heads/", "tags/", "pull/"];

/**
 * The full refs a short one may stand for, most likely first; none when {@code typed} is empty or
 * already full. Actions' ref claim is always full (refs/heads/main), so "main" would never match
 * (the server refuses it, suggesting the first of these).
 */
export function fullRefs(typed: string): string[] {
  const ref = typed.trim();
  if (!ref || ref.startsWith("refs/")) {
    return [];
  }
  if (SHORT_KINDS.some((kind) => ref.startsWith(kind))) {
    return [`refs/${ref}`];
  }
  return [`refs/heads/${ref}`, `refs/tags/${ref}`];
}

/**
 * A YAML scalar for {@code text}: plain when nothing in it means something to YAML (no ': ', ' #',
 * leading indicator, number or boolean look-alike), otherwise double-quoted, which a JSON string is.
 */
function yamlScalar(text: string): string {
  const plain = /^[A-Za-z][\w./@+=' -]*$/.test(text) && !text.endsWith(" ")
    && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(text);
  return plain ? text : JSON.stringify(text);
}

/** The job's condition on the rule's ref, a GitHub expression whose string literal doubles its quotes. */
function refCondition(ref: string): string {
  return yamlScalar(`github.ref == '${ref.replaceAll("'", "''")}'`);
}

/** The workflow's job: environment and ref as the rule requires them, then the exchange and kubectl. */
export function workflow(rules: TrustRules, needs: JobNeeds): string {
  // As the server stores them: trimmed, and a ref only in full (fullRefs offers the rest).
  const ref = needs.ref.trim().startsWith("refs/") ? needs.ref.trim() : "";
  const environmentName = needs.environment.trim();
  const condition = ref
    ? `    # La trust rule solo admite este ref: en cualquier otro el trabajo no se ejecuta.\n    if: ${refCondition(ref)}\n`
    : "";
  const environment = environmentName ? `    environment: ${yamlScalar(environmentName)}\n` : "";
  return `jobs:
  deploy:
${condition}    runs-on: ubuntu-latest
${environment}    permissions:
      id-token: write
      contents: read
    steps:
      - name: Credencial de Klave
        run: |
          KLAVE=${rules.audience}
          ID_TOKEN=$(curl -sfS -H "Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" \\
            "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=$KLAVE" | jq -r .value)
          curl -sfS -X POST "${rules.exchange_url}" \\
            -H 'Content-Type: application/json' \\
            -d "{\\"token\\": \\"$ID_TOKEN\\"}" > klave.json
          jq -r .kubeconfig klave.json > "$RUNNER_TEMP/kubeconfig"
          echo "::add-mask::$(jq -r .token klave.json)"
          echo "KUBECONFIG=$RUNNER_TEMP/kubeconfig" >> "$GITHUB_ENV"
          rm klave.json
      - run: kubectl get pods
`;
}
