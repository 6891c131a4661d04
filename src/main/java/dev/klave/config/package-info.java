/**
 * Typed settings, read once from the environment at start.
 *
 * <p>Every variable is parsed and checked before anything starts; all problems are reported
 * together so that an operator fixes them in one go, and the service never listens with a setting
 * it did not understand. Values that are secrets (database password, encryption key) never appear
 * in {@code toString()} or in a problem message.
 */
package dev.klave.config;
