/**
 * Notifications out of Klave (issue 41 §2): webhooks (Slack-compatible, or JSON signed with
 * HMAC-SHA256) and e-mail, for what waits for a decision, decisions, access about to end and
 * administrators' notices. Written to an outbox in the transaction of what they tell, delivered in
 * the background with retries, at least once, each destination (and e-mail) on its own so one that
 * hangs delays nobody else; never a token, a kubeconfig or a secret value, only a link to Klave.
 * Trusted: nothing a person wrote — it reaches every channel quoted, without control characters,
 * never as formatting or a link. Refused: a destination's address no delivery could reach.
 */
package dev.klave.notify;
