package io.sluice.core.sinks;

import io.sluice.api.Row;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.PartitionWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.types.StructType;

import java.io.PrintStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code console} sink: prints each batch as Spark's console sink does, a banner
 * ({@code -------------------------------------------}, {@code Batch: N}, the dashes again) then the first
 * {@code numRows} rows as {@code Dataset.show(numRows, truncate)} prints them (a table, then an empty line). For
 * development: output goes to standard output and does not outlive the run, so a re-run batch is printed again.
 *
 * <p><b>Beyond</b>: Spark collects the whole batch to the driver to print 20 rows; this sink keeps at most
 * {@code numRows + 1} rows per partition.
 */
final class ConsoleSink implements Sink {
    static final String BANNER = "-------------------------------------------";
    private final StructType schema;
    private final int numRows;
    private final boolean truncate;
    private final ZoneId zone;
    private final PrintStream out;

    /** A sink printing to {@code out}; tests pass their own stream. */
    ConsoleSink(StructType schema, int numRows, boolean truncate, ZoneId zone, PrintStream out) {
        this.schema = schema;
        this.numRows = Math.max(0, numRows);
        this.truncate = truncate;
        this.zone = zone;
        this.out = out;
    }

    @Override
    public BatchWriter beginBatch(long batchId) {
        int keep = numRows + 1;
        return new BatchWriter() {
            @Override
            public PartitionWriter partitionWriter(int partitionId) {
                return new PartitionWriter() {
                    private final List<Row> rows = new ArrayList<>();

                    @Override
                    public void write(Row row) {
                        if (rows.size() < keep) {
                            rows.add(row);
                        }
                    }

                    @Override
                    public Object commit() {
                        return rows;
                    }
                };
            }

            @Override
            public void commit(List<Object> partitionResults) {
                List<Row> first = new ArrayList<>(keep);
                for (Object r : partitionResults) {
                    for (Object row : (List<?>) r) {
                        if (first.size() == keep) {
                            break;
                        }
                        first.add((Row) row);
                    }
                }
                String text = BANNER + "\nBatch: " + batchId + "\n" + BANNER + "\n"
                        + ShowString.of(schema, first, numRows, truncate ? 20 : 0, zone) + "\n";
                synchronized (out) {
                    out.print(text);
                    out.flush();
                }
            }
        };
    }

    @Override
    public String description() {
        return "ConsoleSink[numRows=" + numRows + ", truncate=" + truncate + "]";
    }
}
