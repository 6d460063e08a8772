/**
 * The Kafka source ({@code format("kafka")} for {@code readStream()} and {@code read()}) and the Kafka sink
 * ({@code format("kafka")} for {@code writeStream()}), registered through {@link java.util.ServiceLoader} like any
 * user's connector. Everything here but the providers is package-private; see docs/sources/kafka.md and
 * docs/sinks/kafka.md for options, defaults and errors.
 */
package io.sluice.kafka;
