/**
 * Internal: the engine's small JSON helper on Jackson's streaming API, for its own files and progress. Not part of
 * Sluice's API: no module but sluice-core may use it (sluice-docs-tests' {@code ModuleBoundariesTest} fails the
 * build otherwise). Offsets of the high-level API go through {@link io.sluice.core.OffsetJson}.
 */
package io.sluice.core.json;
