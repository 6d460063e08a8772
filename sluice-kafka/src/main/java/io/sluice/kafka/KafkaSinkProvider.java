package io.sluice.kafka;

import io.sluice.api.OptionSet;
import io.sluice.api.Options;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;

/**
 * The Kafka sink, {@code writeStream().format("kafka")}. Writes each row as one record: column {@code value}
 * (string or binary) is required; {@code key} (string or binary), {@code partition} (int), {@code headers}
 * (array&lt;struct&lt;key:string,value:binary&gt;&gt;) and {@code timestamp} are optional; the topic comes from the
 * {@code topic} option, else from a string column {@code topic}. {@code kafka.*} options go to the producer;
 * {@code kafka.bootstrap.servers} is required.
 *
 * <p>Guarantees: at-least-once by default (a batch re-run after a crash may be written twice, as in Spark). With
 * {@code exactlyOnce=true} each batch is one Kafka transaction that also records its batch id, so a re-run is
 * never written twice for readers using {@code isolation.level=read_committed}. Every option is checked by
 * {@link #validate} and the columns by {@link #createSink}, both before the query runs. See docs/sinks/kafka.md.
 */
public final class KafkaSinkProvider implements SinkProvider {

    @Override
    public String shortName() {
        return "kafka";
    }

    /** Declared in {@link KafkaOptionDefs}; {@code kafka.*} passes through to the clients. */
    @Override
    public OptionSet options() {
        return KafkaOptionDefs.SINK;
    }

    /** @throws io.sluice.api.InvalidOptionException naming the first bad option */
    @Override
    public void validate(Options options) {
        KafkaSinkOptions.parse(options);
    }

    /** @throws IllegalArgumentException with Spark's message when a column is missing or of the wrong type */
    @Override
    public Sink createSink(SinkContext context) {
        KafkaSinkOptions options = KafkaSinkOptions.parse(context.options());
        KafkaRecordConverter converter = KafkaRecordConverter.forSchema(context.schema(), options.topic());
        return options.exactlyOnce()
                ? new TransactionalKafkaSink(options, converter, context.queryId())
                : new KafkaSink(options, converter);
    }
}
