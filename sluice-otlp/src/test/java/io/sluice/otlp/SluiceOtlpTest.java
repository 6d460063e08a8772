package io.sluice.otlp;

import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.sluice.api.InvalidOptionException;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.StreamingQueryProgress;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** OTLP pushed to a real in-process receiver, against the progress of the same batches. */
class SluiceOtlpTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final Sluice sluice = Sluice.builder().clock(clock).build();

    @AfterEach
    void close() {
        sluice.close();
    }

    private StreamingQuery twoBatches(Path checkpoint, SluiceOtlp otlp) {
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                .option("numPartitions", 1).load()
                .writeStream().format("noop").queryName("otlp_rate")
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.processingTime(1000)).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> q.lastProgress() != null && clock.isWaiting());
        clock.advance(1000);
        await().atMost(Duration.ofSeconds(20)).until(() -> q.lastProgress() != null
                && q.lastProgress().batchId() == 1 && clock.isWaiting());
        // The meters follow the listener events, delivered on their own thread.
        await().atMost(Duration.ofSeconds(20)).until(() -> otlp.registry().find("sluice.query.last.batch.id")
                .tag("query", "otlp_rate").gauge() != null && otlp.registry().find("sluice.query.last.batch.id")
                .tag("query", "otlp_rate").gauge().value() == 1.0);
        return q;
    }

    @Test
    void theReceiverGetsTheMetersOfTheSameBatches(@TempDir Path dir) throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            // A step of an hour: the one push is the one close() makes, after both batches.
            SluiceOtlp otlp = SluiceOtlp.start(sluice, Map.of("otlp.url", receiver.url(), "otlp.step", "1h",
                    "otlp.headers", "Authorization=Bearer t0ken,X-Team=data"));
            StreamingQuery q = twoBatches(dir.resolve("chk"), otlp);
            List<StreamingQueryProgress> progress = q.recentProgress();
            assertThat(progress).hasSize(2);
            StreamingQueryProgress last = progress.get(1);
            assertThat(receiver.received).isEmpty();
            otlp.close();

            assertThat(receiver.received).hasSize(1);
            OtlpReceiver.Received r = receiver.received.get(0);
            assertThat(r.contentType()).isEqualTo("application/x-protobuf");
            assertThat(r.headers()).containsEntry("authorization", "Bearer t0ken").containsEntry("x-team", "data");
            assertThat(r.request().getResourceMetrics(0).getResource().getAttributesList())
                    .anySatisfy(kv -> {
                        assertThat(kv.getKey()).isEqualTo("service.name");
                        assertThat(kv.getValue().getStringValue()).isEqualTo("sluice");
                    });
            Map<String, Metric> m = receiver.lastMetrics();
            Map<String, String> query = Map.of("query", "otlp_rate", "query_id", q.id().toString());
            String source = last.sources().get(0).description();
            Map<String, String> src = Map.of("query", "otlp_rate", "query_id", q.id().toString(), "source", source);

            Metric input = m.get("sluice.query.input.rows");
            assertThat(input.hasSum()).isTrue();
            assertThat(input.getSum().getIsMonotonic()).isTrue();
            assertThat(input.getSum().getAggregationTemporality())
                    .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
            assertThat(OtlpReceiver.value(input, query)).isEqualTo(20.0)
                    .isEqualTo(progress.get(0).numInputRows() + last.numInputRows());
            assertThat(OtlpReceiver.value(m.get("sluice.query.batches"), query)).isEqualTo(2.0);
            assertThat(m.get("sluice.query.last.batch.id").hasGauge()).isTrue();
            assertThat(OtlpReceiver.value(m.get("sluice.query.last.batch.id"), query)).isEqualTo(1.0);
            assertThat(OtlpReceiver.value(m.get("sluice.query.batch.rows"), query)).isEqualTo(10.0);
            assertThat(OtlpReceiver.value(m.get("sluice.query.input.rows.per.second"), query))
                    .isEqualTo(last.inputRowsPerSecond()).isEqualTo(10.0);
            assertThat(OtlpReceiver.value(m.get("sluice.query.processed.rows.per.second"), query))
                    .isEqualTo(last.processedRowsPerSecond());
            Metric duration = m.get("sluice.query.batch.duration");
            assertThat(duration.getUnit()).isEqualTo("seconds");
            assertThat(OtlpReceiver.value(duration, query)).isEqualTo(last.batchDuration() / 1000.0);
            last.durationMs().forEach((phase, ms) -> assertThat(OtlpReceiver.value(
                    m.get("sluice.query.phase.duration"), Map.of("query_id", q.id().toString(), "phase", phase)))
                    .as(phase).isEqualTo(ms / 1000.0));
            assertThat(OtlpReceiver.value(m.get("sluice.query.state"), Map.of("query_id", q.id().toString(),
                    "state", "active"))).isEqualTo(1.0);
            assertThat(OtlpReceiver.value(m.get("sluice.query.failures"), query)).isEqualTo(0.0);
            assertThat(OtlpReceiver.value(m.get("sluice.source.input.rows"), src)).isEqualTo(20.0);
            assertThat(OtlpReceiver.value(m.get("sluice.source.input.rows.per.second"), src))
                    .isEqualTo(last.sources().get(0).inputRowsPerSecond());
            // The JVM's meters come along, as on /metrics.
            assertThat(m).containsKey("jvm.threads.live");
            // Closed: the meters are gone from the registry.
            assertThat(otlp.registry().find("sluice.query.input.rows").meters()).isEmpty();
        }
    }

    @Test
    void itPushesEveryStepWhileTheQueryRuns(@TempDir Path dir) throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver();
             SluiceOtlp otlp = SluiceOtlp.start(sluice, Map.of("otlp.url", receiver.url(), "otlp.step", "200ms"))) {
            StreamingQuery q = twoBatches(dir.resolve("chk"), otlp);
            await().atMost(Duration.ofSeconds(20)).until(() -> !receiver.received.isEmpty()
                    && receiver.lastMetrics().containsKey("sluice.query.input.rows")
                    && OtlpReceiver.value(receiver.lastMetrics().get("sluice.query.input.rows"),
                    Map.of("query_id", q.id().toString())) == 20.0);
        }
    }

    @Test
    void theSettingsAreCheckedBeforeAnythingStarts() {
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, Map.of()))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("Option 'otlp.url' is missing: the option is required");
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, "localhost:4318"))
                .hasMessage("Invalid value 'localhost:4318' for option 'otlp.url': an http or https URL is "
                        + "accepted, e.g. http://localhost:4318/v1/metrics");
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, Map.of("otlp.url", "http://h:4318/v1/metrics",
                "otlp.step", "soon"))).isInstanceOf(InvalidOptionException.class)
                .hasMessage(io.sluice.api.Durations.TIME_STRING_ERROR + "\nFailed to parse time string: soon");
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, Map.of("otlp.url", "http://h:4318/v1/metrics",
                "otlp.step", "0s")))
                .hasMessage("Invalid value '0s' for option 'otlp.step': a positive time is accepted, e.g. 10s or 1m");
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, Map.of("otlp.url", "http://h:4318/v1/metrics",
                "otlp.headers", "Authorization: Bearer secret")))
                .hasMessage("Invalid value for option 'otlp.headers': expected key1=value1,key2=value2 (a part has "
                        + "no key or no '=')")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> SluiceOtlp.start(sluice, Map.of("otlp.url", "http://h:4318/v1/metrics",
                "otlp.stpe", "10s"))).hasMessage("Invalid value '10s' for option 'otlp.stpe': not an OTLP setting; "
                + "accepted: otlp.url, otlp.step, otlp.headers, otlp.resourceAttributes");
    }
}
