/**
 * What an agent asks a person for (spec 3 §3, §4 "Write approval flow", "request_access"): a held
 * write waiting for approval, and an access request that becomes a time-boxed grant.
 *
 * <p>Owns: the two kinds of request, their states and who may decide them (the person an agent acts
 * for decides their own agent's requests; administrators decide a bot's), the limit of pending
 * writes per account (spec 3 §8), and the wait of a tool until a person decides. Trusts: the tools
 * for what they hold (the call, its preview, its hash) and the edge for who the person is. Refuses:
 * a decision by anyone else (as not found), a decision on a request no longer pending or run out,
 * and running an approved write twice, on any replica.
 *
 * <p>A decision wakes the waiting tool at once wherever it waits: announced after commit through
 * {@link dev.klave.agent.approval.DecisionSignals} (PostgreSQL {@code LISTEN/NOTIFY}; in process
 * with SQLite, which is one process), and re-read from the database every few seconds should an
 * announcement be lost.
 */
package dev.klave.agent.approval;
