/**
 * The log layout's last line of defence against log injection: Klave's own pattern prints every
 * message and exception through {@link dev.klave.messages.Untrusted#controls}, so no raw control
 * character (a newline that starts a forged line, a terminal escape) ever reaches the log, whatever
 * a call site forgot. Call sites still escape what they take from outside with
 * {@link dev.klave.messages.Untrusted#text}, which also cuts long values.
 */
package dev.klave.logs;
