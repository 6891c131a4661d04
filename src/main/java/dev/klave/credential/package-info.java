/**
 * Credentials (spec 1 §2 "Credential", §4 "Credentials"): bearer tokens {@code klt_…} with a
 * lifetime, optionally restricted to one cluster, delivered once with a kubeconfig.
 *
 * <p>Owns: issuing (who may issue for whom, how long), revoking (by the owner, an administrator,
 * disabling the owner, deleting the cluster it is restricted to) and the kubeconfig. Stores only
 * the token's hash. Refuses: credentials for subjects with no active grant.
 */
package dev.klave.credential;
