/**
 * Every user-visible Spanish text of the specification, in one catalogue (spec 1 §7).
 *
 * <p>The specification writes {@code el servicio} where a message names the product; here that
 * word is {@code Klave}. Every other word is kept exactly, because a black-box suite compares the
 * texts byte for byte. Domain code refuses a request by throwing {@link dev.klave.messages.Refusal};
 * the HTTP layer turns it into the status and body the specification names.
 *
 * <p>{@link dev.klave.messages.Message} holds the answers' texts; {@link dev.klave.messages.Text}
 * the rest a person or an audit row reads (descriptions, notices, health checks, the reasons
 * Klave stores). Each entry has a stable code, pinned by a golden test, for programs that must
 * tell messages apart without reading Spanish (spec 3 §7 {@code {code, params, error}}).
 *
 * <p>{@link dev.klave.messages.Untrusted} is the one way a value from outside enters a log line,
 * an event or a message: escaped and cut.
 */
package dev.klave.messages;
