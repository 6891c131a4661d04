/**
 * Calls out of Klave over HTTP — the OIDC provider, the forge, the CI token issuer, the clusters'
 * API servers — each bounded twice: one deadline for the whole call (connecting, the answer's head
 * and its whole body), and a limit on the answer's size, enforced while it is read. A slow answer
 * (its head at once, then a byte a second) or an endless one ends at the deadline or at the limit
 * with an {@link dev.klave.outbound.OutboundFailure} that says which; nothing from the other side
 * can hold a caller for longer or make Klave hold more than the limit in memory.
 *
 * <p>{@link dev.klave.outbound.PinnedHttps} is for URLs that someone outside Klave names (an OAuth
 * client's metadata document): it also connects only to addresses an
 * {@link dev.klave.outbound.AddressPolicy} permits — the very address it checked, while TLS
 * verifies the URL's host name — and reads its answer with its own strict HTTP/1.1 reader.
 *
 * <p>It trusts nothing it receives and interprets nothing: statuses and bodies go back to the
 * caller, which owns the protocol. It depends on {@code messages} only, to name failures safely.
 */
package dev.klave.outbound;
