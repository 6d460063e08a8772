/**
 * The checkpoint of a streaming query: the offset log ({@code offsets/N}), the commit log ({@code commits/N}), the
 * query id ({@code metadata}), the sources' private folders ({@code sources/<i>/}) and an exclusive lock.
 *
 * <p>The files are byte-for-byte those Spark 4.x writes, so a Spark user can read them with the same eyes (and a
 * Spark checkpoint's logs can be read by Sluice). Beyond Spark, every write is fsynced (file and folder) before it
 * counts, and a checkpoint is locked against a second running query. Start at {@link io.sluice.core.checkpoint.Checkpoint}.
 *
 * <p>Internal: not part of Sluice's API. No module but sluice-core may use it (sluice-docs-tests'
 * {@code ModuleBoundariesTest} fails the build otherwise); the layout on disk is the contract, documented in
 * docs/engine.md. What callers see of it is in {@code io.sluice.core}: the exceptions it throws
 * ({@link io.sluice.core.CheckpointException} and its subclasses, through {@code DataStreamWriter.start()}) and
 * the read-only {@link io.sluice.core.CheckpointView}.
 */
package io.sluice.core.checkpoint;
