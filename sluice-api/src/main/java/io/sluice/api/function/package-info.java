/**
 * The contract of SQL functions contributed by connector modules ({@link io.sluice.api.function.SqlFunction}),
 * found with {@link java.util.ServiceLoader} as sources and sinks are.
 */
package io.sluice.api.function;
