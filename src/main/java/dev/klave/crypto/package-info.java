/**
 * Secrets: bearer tokens ({@code klt_}, {@code kli_}, {@code klr_}) and their hashes.
 *
 * <p>A token is 256 random bits from {@link java.security.SecureRandom}, shown to its owner once;
 * only its SHA-256 is stored, so a copy of the database grants nothing.
 */
package dev.klave.crypto;
