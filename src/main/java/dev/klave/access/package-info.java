/**
 * Who may do what where: tiers, grants, and the {@code service:*} groups a subject carries into a
 * cluster (spec 1 §1.3, §2 "Grant", §4 "Grants").
 *
 * <p>Owns: the tier catalogue and its rules (which scopes a tier accepts, which namespaces are
 * protected, pod-security for writing tiers), and the one definition of "active grant". Refuses:
 * grants on protected namespaces, writing grants on namespaces that do not enforce pod-security,
 * duplicates of an active grant.
 */
package dev.klave.access;
