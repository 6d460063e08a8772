package io.sluice.cli;

import io.sluice.core.StreamingQueryListener;
import io.sluice.core.StreamingQueryProgress;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Shows a running query's progress as it comes ({@link StreamingQueryListener#onQueryProgress}): on a terminal one
 * line redrawn in place, otherwise one plain line per batch (see {@link ProgressView}); also appends each progress
 * to the {@code --progress-file}. Events arrive in order on the engine's listener thread; {@link #awaitTerminated}
 * lets the command wait until the last of them is shown before it exits.
 */
final class LiveView extends StreamingQueryListener {

    /** The first line, once the query id is known. */
    @FunctionalInterface
    interface Header {
        String line(UUID id, String name);
    }

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean live;
    private final int columns;
    private final Backlog backlog;
    private final ProgressFile progressFile;
    private final Header header;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile long batches;
    private volatile long rows;
    private boolean lineOpen;
    private boolean progressFileFailed;

    /**
     * @param live         redraw one line in place (a terminal) rather than print a line per batch
     * @param showBacklog  show the backlog drained (availableNow)
     * @param progressFile where to append each progress, or null
     * @param header       the line printed when the query starts
     */
    LiveView(PrintWriter out, PrintWriter err, boolean live, int columns, boolean showBacklog,
             ProgressFile progressFile, Header header) {
        this.header = header;
        this.out = out;
        this.err = err;
        this.live = live;
        this.columns = columns;
        this.backlog = showBacklog ? new Backlog() : null;
        this.progressFile = progressFile;
    }

    @Override
    public void onQueryStarted(QueryStartedEvent event) {
        synchronized (out) {
            out.println(header.line(event.id(), event.name()));
            out.flush();
        }
    }

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
        StreamingQueryProgress p = event.progress();
        batches++;
        rows += p.numInputRows();
        if (progressFile != null && !progressFileFailed) {
            try {
                progressFile.append(p);
            } catch (UncheckedIOException e) {
                progressFileFailed = true; // said once; the query goes on
                endLine();
                err.println("sluice: " + e.getMessage());
                err.flush();
            }
        }
        Backlog.Drain drain = backlog == null ? null : backlog.update(p);
        synchronized (out) {
            if (live) {
                out.print(ProgressView.liveLine(p, drain, columns));
                lineOpen = true;
            } else {
                out.println(ProgressView.plainLine(p, drain));
            }
            out.flush();
        }
    }

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {
        endLine();
        terminated.countDown();
    }

    /** Ends a live line, so what is printed next starts on a line of its own. */
    void endLine() {
        synchronized (out) {
            if (lineOpen) {
                out.println();
                out.flush();
                lineOpen = false;
            }
        }
    }

    /** Waits until the query's termination (and so every progress before it) has been shown. */
    boolean awaitTerminated(long timeoutMs) throws InterruptedException {
        return terminated.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    long batches() {
        return batches;
    }

    long rows() {
        return rows;
    }
}
