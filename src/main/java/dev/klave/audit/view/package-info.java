/**
 * Reading the record (spec 1 §2 "Audit", §6): the listing of audit rows and control events with
 * their filters and cursors, one row by its {@code Audit-ID}, the export, the live feed — the
 * routes administrators and the web interface use. Apart from {@link dev.klave.audit}, which
 * writes the record and knows nothing of HTTP.
 */
package dev.klave.audit.view;
