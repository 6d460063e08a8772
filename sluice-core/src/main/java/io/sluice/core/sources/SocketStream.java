package io.sluice.core.sources;

import io.sluice.api.Offset;
import io.sluice.api.ReadLimit;
import io.sluice.api.Row;
import io.sluice.api.SluiceClock;
import io.sluice.api.source.InputPartition;
import io.sluice.api.source.MicroBatchStream;
import io.sluice.api.source.PartitionReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Connects when created; a daemon thread reads lines into a buffer. The offset is the number of lines read (0
 * before the first line). {@link #commit} drops the lines up to the committed offset. Only lines still in the
 * buffer can be read: nothing survives a restart.
 */
final class SocketStream implements MicroBatchStream {
    private static final Logger LOG = LoggerFactory.getLogger(SocketStream.class);
    private static final int CONNECT_TIMEOUT_MS = 30_000;

    private final SocketSourceProvider.Settings settings;
    private final SluiceClock clock;
    private final Socket socket;
    private final Thread readThread;

    // Guarded by this. Lines numbered base+1 .. base+lines.size() are buffered.
    private final List<Row> lines = new ArrayList<>();
    private long base;
    private boolean anchored;
    private volatile boolean stopped;

    SocketStream(SocketSourceProvider.Settings settings, SluiceClock clock) {
        this.settings = settings;
        this.clock = clock;
        LOG.warn("The socket source should not be used for production applications! It does not support recovery.");
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(settings.host(), settings.port()), CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing to release
            }
            throw new UncheckedIOException("Cannot connect the socket source to " + settings.host() + ":"
                    + settings.port() + ": " + e.getMessage(), e);
        }
        this.socket = s;
        this.readThread = new Thread(this::readLines, "sluice-socket-reader-" + settings.host() + ":" + settings.port());
        readThread.setDaemon(true);
        readThread.start();
    }

    private void readLines() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                Row row = settings.includeTimestamp()
                        ? Row.wrap(new Object[] {line, Instant.ofEpochMilli(clock.millis())})
                        : Row.wrap(new Object[] {line});
                synchronized (this) {
                    lines.add(row);
                }
            }
            if (!stopped) {
                LOG.warn("Stream closed by {}:{}", settings.host(), settings.port());
            }
        } catch (IOException e) {
            if (!stopped) {
                LOG.warn("Reading from {}:{} failed", settings.host(), settings.port(), e);
            }
        }
    }

    /**
     * A checkpoint from an earlier run may be beyond what this run has read: those lines are gone, so the lines
     * of this run are numbered on from {@code position} (the first batch's start, or the end of a logged batch
     * re-run after a restart, which then reads nothing).
     */
    private void anchor(long position) {
        if (!anchored) {
            anchored = true;
            if (position > base) {
                LOG.warn("The socket source resumes at offset {}: lines read before the restart are lost", position);
                base = position;
            }
        }
    }

    @Override
    public Offset initialOffset() {
        return new LongOffset(0);
    }

    @Override
    public Offset deserializeOffset(String json) {
        return LongOffset.parse(json, "socket");
    }

    @Override
    public synchronized Offset latestOffset(Offset start, ReadLimit limit) {
        long s = start == null ? 0 : LongOffset.of(start, "socket");
        anchor(s);
        long latest = base + lines.size();
        return latest <= s && start != null ? start : new LongOffset(latest);
    }

    @Override
    public List<InputPartition> planPartitions(Offset start, Offset end) {
        long s = LongOffset.of(start, "socket");
        long e = LongOffset.of(end, "socket");
        long from;
        long to;
        synchronized (this) {
            anchor(e);
            from = Math.max(s, base);
            to = Math.max(from, Math.min(e, base + lines.size()));
            if (from != s || to != e) {
                LOG.warn("The socket source cannot replay lines {} to {}: only {} to {} are buffered", s + 1, e,
                        base + 1, base + lines.size());
            }
        }
        int n = settings.numPartitions();
        List<InputPartition> parts = new ArrayList<>(n);
        for (int p = 0; p < n; p++) {
            parts.add(new SocketPartition(from, to, p, n));
        }
        return parts;
    }

    @Override
    public PartitionReader createReader(InputPartition partition) {
        SocketPartition p = (SocketPartition) partition;
        List<Row> rows = new ArrayList<>();
        synchronized (this) {
            if (p.from() < base) {
                throw new IllegalStateException("Lines " + (p.from() + 1) + " to " + p.to()
                        + " of the socket source were already committed and dropped");
            }
            // line number from + 1 + i goes to partition i % numPartitions
            int first = (int) (p.from() - base);
            int last = (int) Math.min(p.to() - base, lines.size());
            for (int i = first + p.partitionId(); i < last; i += p.numPartitions()) {
                rows.add(lines.get(i));
            }
        }
        return new RowListReader(rows);
    }

    /** Lines read and not yet dropped by a commit; for tests. */
    synchronized int bufferedLineCount() {
        return lines.size();
    }

    @Override
    public synchronized void commit(Offset end) {
        long e = LongOffset.of(end, "socket");
        // On a resume the engine first re-commits the last batch's end: that fixes where this run's lines start,
        // and none of them may be dropped by it.
        anchor(e);
        if (e < base) {
            throw new IllegalStateException("Offsets committed out of order: " + base + " followed by " + e);
        }
        int drop = (int) Math.min(e - base, lines.size());
        lines.subList(0, drop).clear();
        base = e;
    }

    @Override
    public void stop() {
        stopped = true;
        try {
            // readLine() cannot be interrupted: closing the socket ends the reading thread.
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            readThread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean readerAlive() {
        return readThread.isAlive();
    }

    @Override
    public String description() {
        return "TextSocketV2[host: " + settings.host() + ", port: " + settings.port() + "]";
    }

    @Override
    public String toString() {
        return description();
    }

    /** Lines {@code (from, to]}, those whose index in the range is {@code partitionId} modulo {@code numPartitions}. */
    record SocketPartition(long from, long to, int partitionId, int numPartitions) implements InputPartition {
    }
}
