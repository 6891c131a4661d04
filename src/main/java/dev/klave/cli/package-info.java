/**
 * The command line: {@code klave serve} and the account commands that work on the database
 * directly, without contacting any identity provider (spec 1 §1.8). Errors are one line on
 * standard error and a non-zero exit status; a command's result goes to standard output alone so
 * that scripts can capture it.
 */
package dev.klave.cli;
