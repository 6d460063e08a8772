/**
 * The state store contract of stateful operators (aggregations, deduplication): a versioned key-value store per
 * operator and state partition, kept in the checkpoint under {@code state/<operatorId>/<partition>/}.
 *
 * <p>This package is a service-provider interface, like the source and sink contracts: a store lives in any
 * module, implements {@link io.sluice.core.state.StateStoreProvider} and lists itself in
 * {@code META-INF/services/io.sluice.core.state.StateStoreProvider}; a query picks one by name with Spark's
 * {@code spark.sql.streaming.stateStore.providerClass} ({@code Sluice.builder().config(..)}), and the name is pinned
 * in the checkpoint's offset log. The engine names no provider but its default, the in-memory store
 * ({@code HDFSBackedStateStoreProvider}'s equivalent: per-batch delta files and periodic snapshots).
 *
 * <p>Keys and values are opaque bytes: the engine encodes rows itself (documented in docs/stateful.md), so a store
 * needs no schema and compares keys by content.
 *
 * <p>Call order, per operator and partition, on one thread at a time (different partitions run in parallel):
 * <ol>
 *   <li>{@link io.sluice.core.state.StateStoreProvider#open} once per query run, giving a
 *       {@link io.sluice.core.state.StatePartition};</li>
 *   <li>for batch N, {@link io.sluice.core.state.StatePartition#load load(N)} (the state after batch N-1; version 0
 *       is empty), reads and writes, then {@link io.sluice.core.state.StateStore#commit()}, which makes version N+1
 *       durable, or {@link io.sluice.core.state.StateStore#abort()};</li>
 *   <li>after a commit, {@link io.sluice.core.state.StatePartition#maintenance()} (snapshots, purging);</li>
 *   <li>{@link io.sluice.core.state.StatePartition#close()} when the query stops.</li>
 * </ol>
 * A batch re-run after a crash loads version N again although N+1 may exist (whole or partly written): the new
 * commit of N+1 replaces it.
 */
package io.sluice.core.state;
