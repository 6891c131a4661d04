/**
 * Recorded sessions (issue 42): the output of {@code kubectl exec} and {@code attach} as asciicast
 * v2, over WebSocket or SPDY/3.1, read off the relayed bytes (a tap after each write: parsing never changes or delays what is
 * relayed) and written to the database in chunks by a writer off the relay's thread.
 */
package dev.klave.recording;
