/**
 * The record of what happened: control-plane events (sign-ins, link uses, administrators'
 * actions; spec 1 §6) and one audit row per request sent to a cluster, each saying how it came
 * ({@link dev.klave.audit.Channel}: through the proxy, or from an agent's tool in its session).
 *
 * <p>Events are written in the same transaction as the change they describe, so a change without
 * its event, or an event without its change, cannot be stored. They are never edited.
 */
package dev.klave.audit;
