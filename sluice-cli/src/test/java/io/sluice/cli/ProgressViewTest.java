package io.sluice.cli;

import io.sluice.core.SinkProgress;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQueryProgress;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressViewTest {
    private static final UUID ID = UUID.fromString("00000000-0000-0000-0000-000000000001");

    private static StreamingQueryProgress progress(long batchId, long rows, double in, double processed,
                                                   long durationMs, SourceProgress... sources) {
        List<SourceProgress> list = sources.length > 0 ? List.of(sources)
                : List.of(new SourceProgress("src", null, "1", null, rows, in, processed, Map.of()));
        return new StreamingQueryProgress(ID, ID, "q", "2026-01-01T00:00:00.000Z", batchId, durationMs,
                Map.of("triggerExecution", durationMs), Map.of(), list, new SinkProgress("sink", rows, Map.of()));
    }

    private static SourceProgress files(long rows, long filesLeft, long bytesLeft) {
        return new SourceProgress("FileStreamSource[/in]", null, "{\"logOffset\":1}", null, rows, 10.0, 20.0,
                Map.of("numFilesOutstanding", Long.toString(filesLeft), "numBytesOutstanding",
                        Long.toString(bytesLeft)));
    }

    private static SourceProgress kafka(long rows, String end, String latest) {
        return new SourceProgress("KafkaV2[Subscribe[t]]", null, end, latest, rows, 10.0, 20.0, Map.of());
    }

    @Test
    void plainLine() {
        assertThat(ProgressView.plainLine(progress(3, 1000, 512.34, 20000, 50), null))
                .isEqualTo("batch 3: 1000 rows, 512.3 input rows/s, 20000.0 processed rows/s, 50 ms");
        assertThat(ProgressView.plainLine(progress(0, 0, Double.NaN, 0, 7), null))
                .isEqualTo("batch 0: 0 rows, - input rows/s, 0.0 processed rows/s, 7 ms");
        assertThat(ProgressView.plainLine(progress(4, 10, 1, 2, 3), new Backlog.Drain(45, 100, "files")))
                .isEqualTo("batch 4: 10 rows, 1.0 input rows/s, 2.0 processed rows/s, 3 ms, "
                        + "backlog 45% drained (55 files left)");
    }

    @Test
    void liveLineRedrawsInPlaceAndNeverWraps() {
        StreamingQueryProgress p = progress(3, 1000, 512.34, 20000, 50);
        assertThat(ProgressView.liveLine(p, null, 120))
                .isEqualTo("\r\033[2Kbatch 3 | 1000 rows | 512.3 in/s | 20000.0 processed/s | 50 ms");
        assertThat(ProgressView.liveLine(p, new Backlog.Drain(45, 100, "files"), 120))
                .isEqualTo("\r\033[2Kbatch 3 | 1000 rows | 512.3 in/s | 20000.0 processed/s | 50 ms | "
                        + "[#########...........] 45% 55 files left");
        assertThat(ProgressView.liveLine(p, new Backlog.Drain(45, 100, "files"), 41))
                .isEqualTo("\r\033[2Kbatch 3 | 1000 rows | 512.3 in/s | 20000");
    }

    @Test
    void bar() {
        assertThat(ProgressView.bar(0, 10)).isEqualTo("[..........]");
        assertThat(ProgressView.bar(0.19, 10)).isEqualTo("[#.........]");
        assertThat(ProgressView.bar(0.999, 10)).isEqualTo("[#########.]");
        assertThat(ProgressView.bar(1, 10)).isEqualTo("[##########]");
        assertThat(ProgressView.bar(7, 4)).isEqualTo("[####]");
        assertThat(ProgressView.bar(Double.NaN, 4)).isEqualTo("[....]");
        assertThat(ProgressView.percent(0.999)).isEqualTo(99);
        assertThat(ProgressView.percent(1)).isEqualTo(100);
    }

    @Test
    void remainingInEachUnit() {
        assertThat(ProgressView.remaining(new Backlog.Drain(9, 10, "files"))).isEqualTo("1 file left");
        assertThat(ProgressView.remaining(new Backlog.Drain(0, 1536, "bytes"))).isEqualTo("1.5 KiB left");
        assertThat(ProgressView.remaining(new Backlog.Drain(0, 1000, "bytes"))).isEqualTo("1000 B left");
        assertThat(ProgressView.remaining(new Backlog.Drain(0, 5L << 30, "bytes"))).isEqualTo("5.0 GiB left");
        assertThat(ProgressView.remaining(new Backlog.Drain(7, 10, "offsets"))).isEqualTo("3 offsets behind");
    }

    @Test
    void fileBacklogDrainsFromTheMostSeenOutstanding() {
        Backlog b = new Backlog();
        assertThat(b.update(progress(0, 20, 1, 1, 1, files(20, 8, 800)))).isEqualTo(new Backlog.Drain(0, 8, "files"));
        assertThat(b.update(progress(1, 20, 1, 1, 1, files(20, 6, 600)))).isEqualTo(new Backlog.Drain(2, 8, "files"));
        Backlog.Drain last = b.update(progress(2, 20, 1, 1, 1, files(20, 0, 0)));
        assertThat(last).isEqualTo(new Backlog.Drain(8, 8, "files"));
        assertThat(last.fraction()).isEqualTo(1.0);
    }

    @Test
    void fileBacklogCountsWhatTheRunTookSoTheFirstBatchAlreadyShows() {
        Backlog b = new Backlog();
        // 10 files found, 2 taken by batch 0: 20% drained after the first batch, not 0%.
        Backlog.Drain first = b.update(progress(0, 20, 1, 1, 1, taken(20, 2, 8)));
        assertThat(first).isEqualTo(new Backlog.Drain(2, 10, "files"));
        assertThat(ProgressView.plainLine(progress(0, 20, 1, 1, 1), first)).endsWith(
                ", backlog 20% drained (8 files left)");
        // New files arrived meanwhile: 4 taken, 9 left.
        assertThat(b.update(progress(1, 20, 1, 1, 1, taken(20, 4, 9)))).isEqualTo(new Backlog.Drain(4, 13, "files"));
        assertThat(b.update(progress(2, 20, 1, 1, 1, taken(20, 13, 0))).fraction()).isEqualTo(1.0);
    }

    private static SourceProgress taken(long rows, long filesTaken, long filesLeft) {
        return new SourceProgress("FileStreamSource[/in]", null, "{\"logOffset\":1}", null, rows, 10.0, 20.0,
                Map.of("numFilesOutstanding", Long.toString(filesLeft), "numFilesTaken", Long.toString(filesTaken),
                        "numBytesOutstanding", Long.toString(filesLeft * 100), "numBytesTaken",
                        Long.toString(filesTaken * 100)));
    }

    @Test
    void bytesWhenFilesAreNotReported() {
        Backlog b = new Backlog();
        SourceProgress s = new SourceProgress("x", null, null, null, 5, 1, 1, Map.of("numBytesOutstanding", "400"));
        assertThat(b.update(progress(0, 5, 1, 1, 1, s))).isEqualTo(new Backlog.Drain(0, 400, "bytes"));
    }

    @Test
    void kafkaBacklogFromOffsetsBehindLatest() {
        Backlog b = new Backlog();
        // 100 rows read, 300 behind over two partitions: 25% drained.
        Backlog.Drain first = b.update(progress(0, 100, 1, 1, 1,
                kafka(100, "{\"t\":{\"0\":50,\"1\":50}}", "{\"t\":{\"0\":200,\"1\":200}}")));
        assertThat(first).isEqualTo(new Backlog.Drain(100, 400, "offsets"));
        assertThat(ProgressView.plainLine(progress(0, 100, 1, 1, 1), first)).endsWith(
                ", backlog 25% drained (300 offsets behind)");
        Backlog.Drain second = b.update(progress(1, 300, 1, 1, 1,
                kafka(300, "{\"t\":{\"0\":200,\"1\":200}}", "{\"t\":{\"0\":200,\"1\":200}}")));
        assertThat(second).isEqualTo(new Backlog.Drain(400, 400, "offsets"));
        assertThat(ProgressView.percent(second.fraction())).isEqualTo(100);
    }

    @Test
    void longOffsetsBehindLatest() {
        assertThat(Backlog.behind("5", "12")).hasValue(7);
        assertThat(Backlog.behind("12", "5")).hasValue(0);
    }

    @Test
    void noBacklogForSourcesWithoutAMeasure() {
        Backlog b = new Backlog();
        // rate-micro-batch: no metrics, no latestOffset.
        SourceProgress rate = new SourceProgress("RatePerMicroBatchStream[..]", null,
                "{\"offset\":10,\"timestamp\":1000}", null, 10, 1, 1, Map.of());
        assertThat(b.update(progress(0, 10, 1, 1, 1, rate))).isNull();
        // An object offset that is not Kafka-shaped is not read as rows behind.
        assertThat(Backlog.behind("{\"offset\":10,\"timestamp\":1000}", "{\"offset\":20,\"timestamp\":2000}"))
                .isEmpty();
        assertThat(Backlog.behind("{\"t\":{\"0\":\"x\"}}", "{\"t\":{\"0\":\"y\"}}")).isEmpty();
        assertThat(Backlog.behind("not json", "1")).isEmpty();
    }

    @Test
    void liveViewPrintsHeaderLinesAndEndsTheLiveLine() {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        LiveView live = new LiveView(out, out, true, 200, true, null, (id, name) -> "started " + name);
        live.onQueryStarted(new LiveView.QueryStartedEvent(ID, ID, "q", "t"));
        live.onQueryProgress(new LiveView.QueryProgressEvent(progress(0, 20, 1, 2, 3, files(20, 3, 30))));
        live.onQueryProgress(new LiveView.QueryProgressEvent(progress(1, 20, 1, 2, 3, files(20, 0, 0))));
        live.onQueryTerminated(new LiveView.QueryTerminatedEvent(ID, ID, null));
        assertThat(sw.toString()).isEqualTo("started q\n"
                + "\r\033[2Kbatch 0 | 20 rows | 10.0 in/s | 20.0 processed/s | 3 ms | [....................] 0% 3 files left"
                + "\r\033[2Kbatch 1 | 20 rows | 10.0 in/s | 20.0 processed/s | 3 ms | [####################] 100% 0 files left"
                + "\n");
        assertThat(live.batches()).isEqualTo(2);
        assertThat(live.rows()).isEqualTo(40);

        StringWriter plain = new StringWriter();
        PrintWriter pw = new PrintWriter(plain);
        LiveView view = new LiveView(pw, pw, false, 80, false, null, (id, name) -> "started " + id);
        view.onQueryProgress(new LiveView.QueryProgressEvent(progress(0, 20, 1, 2, 3, files(20, 3, 30))));
        view.onQueryTerminated(new LiveView.QueryTerminatedEvent(ID, ID, null));
        assertThat(plain.toString()).isEqualTo("batch 0: 20 rows, 10.0 input rows/s, 20.0 processed rows/s, 3 ms\n");
    }

    @Test
    void oneDecimalIsWhatTheFormatterPrints() {
        List<Double> values = new java.util.ArrayList<>(List.of(0.0, 0.05, 0.15, 0.25, 0.35, 1.45, 2.675, 999.95,
                12345.65, 1e-5, 0.96, 9.95, 1e7, 1.0e21, 30303.0, 10714285.7, Double.MIN_VALUE, Double.MAX_VALUE));
        SplittableRandom random = new SplittableRandom(15);
        for (int i = 0; i < 10_000; i++) {
            values.add(random.nextDouble() * Math.pow(10, random.nextInt(-3, 12)));
            values.add(random.nextInt(0, 1_000_000) / 100.0 + 0.05);
        }
        for (double v : values) {
            assertThat(ProgressView.oneDecimal(v)).as("%s", v).isEqualTo(String.format(Locale.ROOT, "%.1f", v));
        }
    }
}
