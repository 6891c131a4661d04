/**
 * Notifications out of Klave (issue 41 §2): webhooks (Slack-compatible, or JSON signed with
 * HMAC-SHA256) and e-mail, for what waits for a decision, decisions, access about to end and
 * administrators' notices. Written to an outbox in the transaction of what they tell, delivered in
 * the background with retries; never a token, a kubeconfig or a secret value, only a link to Klave.
 */
package dev.klave.notify;
