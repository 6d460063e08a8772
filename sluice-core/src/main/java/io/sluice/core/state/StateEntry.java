package io.sluice.core.state;

/** One key and its value in a {@link StateStore}, as bytes the engine encoded. */
public record StateEntry(byte[] key, byte[] value) {
}
