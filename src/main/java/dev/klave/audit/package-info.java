/**
 * The record of what happened: control-plane events (sign-ins, link uses, administrators'
 * actions; spec 1 §6) and, with the proxy, one audit row per proxied request.
 *
 * <p>Events are written in the same transaction as the change they describe, so a change without
 * its event, or an event without its change, cannot be stored. They are never edited.
 */
package dev.klave.audit;
