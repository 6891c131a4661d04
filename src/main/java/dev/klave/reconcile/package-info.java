/**
 * The RBAC reconciler (spec 1 §1.4): makes the RBAC Klave manages inside a
 * cluster match the active grants of enabled subjects.
 *
 * <p>Writes only three kinds of object, all labelled {@code app.kubernetes.io/managed-by=klave} (the bindings also
 * {@code app.kubernetes.io/component=grant-binding}, which the bootstrap's own bindings lack):
 * the impersonation ClusterRole (which users, groups and uids the proxy may impersonate), one
 * RoleBinding per (tier, namespace) and one ClusterRoleBinding per (tier, {@code *}), each binding
 * the group {@code service:<tier>:<scope>} to the tier's built-in ClusterRole. Never reads or
 * changes an object without the label. One pass per cluster at a time across replicas (a lease
 * row); a pass that finds nothing to change changes nothing.
 */
package dev.klave.reconcile;
