package io.sluice.cli;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Offset;
import io.sluice.api.Options;
import io.sluice.api.ReadLimit;
import io.sluice.api.sink.BatchWriter;
import io.sluice.api.sink.Sink;
import io.sluice.api.sink.SinkContext;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import io.sluice.api.source.SourceProvider;
import io.sluice.api.source.StreamContext;
import io.sluice.api.types.StructType;

import java.util.List;
import java.util.Optional;

/** Sources and sinks that only the CLI's tests use. */
final class TestProviders {
    private TestProviders() {
    }

    /**
     * {@code secret-test}: refuses an {@code ssl.key.password} shorter than 8 characters, echoing it (as many real
     * sources do); its one batch fails with a message that echoes {@code auth.token}.
     */
    public static final class SecretSource implements SourceProvider {
        @Override
        public String shortName() {
            return "secret-test";
        }

        @Override
        public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
            options.get("ssl.key.password").filter(v -> v.length() < 8).ifPresent(v -> {
                throw new InvalidOptionException("ssl.key.password", v, "at least 8 characters are accepted");
            });
            return StructType.fromDDL("value bigint");
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            String token = context.options().get("auth.token", "");
            return new OneBatchStream() {
                @Override
                public PartitionReader createReader(InputPartition partition) {
                    throw new IllegalStateException("the server refused token " + token);
                }
            };
        }
    }

    /**
     * {@code upstream-test}: its one batch fails as a source over HTTP does when a proxy answers with an error page:
     * the message quotes the whole page ({@code pageBytes} of HTML over many lines, default 50,000).
     */
    public static final class UpstreamErrorSource implements SourceProvider {
        static final String URL = "http://upstream.test/entries?from=0";

        @Override
        public String shortName() {
            return "upstream-test";
        }

        @Override
        public StructType resolveSchema(Options options, Optional<StructType> userSchema) {
            return StructType.fromDDL("value bigint");
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            String page = errorPage(context.options().getInt("pageBytes", 50_000));
            return new OneBatchStream() {
                @Override
                public PartitionReader createReader(InputPartition partition) {
                    throw new IllegalStateException("GET " + URL + " answered 502: " + page);
                }
            };
        }

        /** An HTML error page of exactly {@code bytes} ASCII characters, over many lines. */
        static String errorPage(int bytes) {
            StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title>"
                    + "<style>body { color: #333; font-family: sans-serif }</style></head>\n<body>\n");
            for (int i = 0; html.length() < bytes; i++) {
                html.append("<p class=\"filler\">upstream error detail ").append(i).append("</p>\n");
            }
            html.setLength(bytes);
            return html.toString();
        }
    }

    /** {@code schema-test}: has no fixed schema, so without one from the user {@code load()} fails. */
    public static final class NoSchemaSource implements SourceProvider {
        @Override
        public String shortName() {
            return "schema-test";
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            throw new UnsupportedOperationException("the tests only load it");
        }
    }

    /** A stream with one batch (offsets "0" to "1") of one partition; {@link #createReader} is the test's. */
    private abstract static class OneBatchStream implements MicroBatchStream {
        @Override
        public Offset initialOffset() {
            return Offset.of("0");
        }

        @Override
        public Offset deserializeOffset(String json) {
            return Offset.of(json);
        }

        @Override
        public Offset latestOffset(Offset start, ReadLimit limit) {
            return Offset.of("1");
        }

        @Override
        public List<InputPartition> planPartitions(Offset start, Offset end) {
            return start.json().equals(end.json()) ? List.of() : List.of(new InputPartition() {
                private static final long serialVersionUID = 1L;
            });
        }

        @Override
        public void stop() {
        }
    }

    /**
     * {@code stuck-test}: its {@code latestOffset} prints {@code stuck-test: latestOffset blocked} on stderr and
     * blocks forever; with option {@code interruptible=true} an interrupt ends the wait (and fails the call),
     * otherwise interrupts are ignored, as by a client library stuck in I/O that does not honour them.
     */
    public static final class StuckSource implements SourceProvider {
        @Override
        public String shortName() {
            return "stuck-test";
        }

        @Override
        public Optional<StructType> fixedSchema(Options options) {
            return Optional.of(StructType.fromDDL("value bigint"));
        }

        @Override
        public MicroBatchStream createStream(StreamContext context) {
            boolean interruptible = context.options().getBoolean("interruptible", false);
            return new MicroBatchStream() {
                @Override
                public Offset initialOffset() {
                    return Offset.of("0");
                }

                @Override
                public Offset deserializeOffset(String json) {
                    return Offset.of(json);
                }

                @Override
                public Offset latestOffset(Offset start, ReadLimit limit) {
                    System.err.println("stuck-test: latestOffset blocked");
                    System.err.flush();
                    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
                    while (true) {
                        try {
                            never.await();
                        } catch (InterruptedException e) {
                            if (interruptible) {
                                Thread.currentThread().interrupt();
                                throw new IllegalStateException("latestOffset interrupted", e);
                            }
                        }
                    }
                }

                @Override
                public List<InputPartition> planPartitions(Offset start, Offset end) {
                    return List.of();
                }

                @Override
                public PartitionReader createReader(InputPartition partition) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void stop() {
                }
            };
        }
    }

    /** {@code strict-test}: discards rows, and (unlike memory and noop) needs a real checkpoint. */
    public static final class StrictSink implements SinkProvider {
        @Override
        public String shortName() {
            return "strict-test";
        }

        @Override
        public Sink createSink(SinkContext context) {
            return new DiscardingSink();
        }
    }

    /** {@code plugin-test}: listed in no services file on the classpath; tests put it in a plugin jar's. */
    public static final class PluginSink implements SinkProvider {
        @Override
        public String shortName() {
            return "plugin-test";
        }

        @Override
        public boolean allowsTemporaryCheckpoint() {
            return true;
        }

        @Override
        public Sink createSink(SinkContext context) {
            return new DiscardingSink();
        }
    }

    private static final class DiscardingSink implements Sink {
        @Override
        public void close() {
        }

        @Override
        public BatchWriter beginBatch(long batchId) {
            return BatchWriter.discarding(-1);
        }
    }
}
